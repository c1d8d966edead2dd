import { Global, Module } from '@nestjs/common';
import { ErrorAnswers } from '@lnk/shared/http';
import { AllExceptionsFilter } from './all-exceptions.filter';

/**
 * The catch-all exception filter, once for the app: every route's (the app's APP_FILTER) and, under
 * ErrorAnswers, what a context's own filter hands the errors it does not answer itself (global, so each
 * context's module sees it).
 */
@Global()
@Module({
  providers: [{ provide: ErrorAnswers, useClass: AllExceptionsFilter }],
  exports: [ErrorAnswers],
})
export class EnvelopeModule {}
