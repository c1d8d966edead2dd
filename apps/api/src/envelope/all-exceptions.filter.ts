import { ArgumentsHost, Catch, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DomainError, ErrorCode, RateLimitedError } from '@lnk/shared/kernel';
import { isDatabaseTimeout, isDatabaseUnavailable } from '@lnk/shared/database';
import { type ErrorEnvelope, ErrorAnswers, type RenderedError } from '@lnk/shared/http';
import { AnswerAsIs } from './answer-as-is';
import { ERROR_STATUS } from './error-status';

const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Every 503 says when to come back. */
const UNAVAILABLE_HEADERS = { 'retry-after': '5' };

function envelope(code: ErrorCode, message: string, meta?: ErrorEnvelope['meta']): ErrorEnvelope {
  return { status: ERROR_STATUS[code], code, message, ...(meta ? { meta } : {}) };
}

/** Errors raised by Fastify itself before a route runs (body parsing, content type, size). */
function renderFastifyError(error: { code?: string; statusCode?: number; message?: string }): ErrorEnvelope | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return envelope('PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return envelope('VALIDATION_ERROR', 'Unsupported content type', {
        errors: [{ name: 'content-type', error: 'content type must be application/json' }],
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return envelope('VALIDATION_ERROR', 'Malformed request body', {
        errors: [{ name: 'body', error: error.message ?? 'the body is not valid JSON' }],
      });
  }
  if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return envelope('VALIDATION_ERROR', 'Malformed request body', { errors: [{ name: 'body', error: 'the body is not valid JSON' }] });
  }
  return null;
}

function renderHttpException(exception: HttpException): ErrorEnvelope {
  const status = exception.getStatus();
  if (status === HttpStatus.NOT_FOUND) return envelope('NOT_FOUND', 'Resource not found');
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE) {
    return envelope('VALIDATION_ERROR', 'Unsupported content type', {
      errors: [{ name: 'content-type', error: 'content type must be application/json' }],
    });
  }
  if (status === HttpStatus.BAD_REQUEST) {
    // Raised before validation (the body could not be parsed), so the body itself is the field.
    return envelope('VALIDATION_ERROR', 'Malformed request body', { errors: [{ name: 'body', error: exception.message }] });
  }
  const code = STATUS_CODES[status];
  if (code) return envelope(code, exception.message);
  if (status >= 400 && status < 500) return { status, code: 'BAD_REQUEST', message: exception.message };
  return envelope('INTERNAL_ERROR', 'Internal server error');
}

/**
 * Renders every error as an envelope, the one place that does. Unknown errors become a generic 500
 * (logged here with their stack, never sent), an unreachable database or one that did not answer within
 * its bounds (a statement, lock or read timeout, no connection in time) a 503.
 */
@Catch()
export class AllExceptionsFilter extends ErrorAnswers {
  private readonly logger = new Logger('Errors');

  render(exception: unknown): RenderedError {
    if (exception instanceof AnswerAsIs && exception.body) return { envelope: exception.body };
    if (exception instanceof DomainError) {
      const headers =
        exception instanceof RateLimitedError
          ? { 'retry-after': String(exception.retryAfterSeconds) }
          : exception.code === 'SERVICE_UNAVAILABLE'
            ? UNAVAILABLE_HEADERS
            : undefined;
      return { envelope: envelope(exception.code, exception.message, exception.meta as ErrorEnvelope['meta']), headers };
    }
    if (exception instanceof HttpException) return { envelope: renderHttpException(exception) };
    const fastify = renderFastifyError((exception ?? {}) as { code?: string; statusCode?: number; message?: string });
    if (fastify) return { envelope: fastify };
    if (isDatabaseUnavailable(exception) || isDatabaseTimeout(exception)) {
      this.logger.warn(`database unavailable: ${(exception as Error)?.message}`);
      return {
        envelope: envelope('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable, try again shortly'),
        headers: UNAVAILABLE_HEADERS,
      };
    }
    this.logger.error((exception as Error)?.stack ?? String(exception));
    return { envelope: envelope('INTERNAL_ERROR', 'Internal server error') };
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (exception instanceof AnswerAsIs) {
      if (reply.sent) return;
      void (exception.body
        ? reply.code(exception.status).type('application/json; charset=utf-8').send(exception.body)
        : reply.code(exception.status).send());
      return;
    }
    const { envelope: body, headers } = this.render(exception);
    if (reply.sent) return;
    if (headers) void reply.headers(headers);
    void reply.code(body.status).type('application/json; charset=utf-8').send(body);
  }
}
