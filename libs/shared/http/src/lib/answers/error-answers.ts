import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import type { ErrorEnvelope } from './envelope';

/** An error as the envelope answers it, with the headers that go with it (Retry-After). */
export interface RenderedError {
  envelope: ErrorEnvelope;
  headers?: Record<string, string>;
}

/**
 * The app's catch-all exception filter, the one place an error becomes its envelope (the status map is
 * the app's). A context's own filter (OAuth's, for form-encoded requests) answers some requests its own
 * way from the same rendering and hands the others to it; the app provides it under this class.
 */
export abstract class ErrorAnswers implements ExceptionFilter {
  abstract render(exception: unknown): RenderedError;
  abstract catch(exception: unknown, host: ArgumentsHost): void;
}
