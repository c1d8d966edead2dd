import { Global, Module } from '@nestjs/common';
import { Cursors, ErrorAnswers } from '@lnk/shared/http';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { APP_CONFIG, type AppConfig, deriveKey, KEY_PURPOSES, secretKeyOf } from '@lnk/composition';

/**
 * The catch-all exception filter, once for the app: every route's (the app's APP_FILTER) and, under
 * ErrorAnswers, what a context's own filter hands the errors it does not answer itself (global, so each
 * context's module sees it); and the lists' Cursors, signed with a key of their own (global: every
 * context's lists answer them).
 */
@Global()
@Module({
  providers: [
    { provide: ErrorAnswers, useClass: AllExceptionsFilter },
    {
      provide: Cursors,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new Cursors(deriveKey(secretKeyOf(config), KEY_PURPOSES.signCursors)),
    },
  ],
  exports: [ErrorAnswers, Cursors],
})
export class EnvelopeModule {}
