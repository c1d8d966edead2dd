import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorEnvelope, ErrorAnswers } from '@lnk/shared/http';

/** The RFC error name for each envelope code a token, revoke or introspect request can end in. */
const RFC_ERRORS: Record<string, string> = {
  INVALID_REQUEST: 'invalid_request',
  INVALID_CLIENT: 'invalid_client',
  INVALID_GRANT: 'invalid_grant',
  UNAUTHORIZED_CLIENT: 'unauthorized_client',
  UNSUPPORTED_GRANT_TYPE: 'unsupported_grant_type',
  INVALID_SCOPE: 'invalid_scope',
  VALIDATION_ERROR: 'invalid_request',
  TWO_FACTOR_REQUIRED: 'two_factor_required',
  UNAUTHORIZED: 'invalid_grant',
  RATE_LIMITED: 'slow_down',
  PAYLOAD_TOO_LARGE: 'invalid_request',
};

export function isFormRequest(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}

/** A refused request says which parameters are wrong ("Validation failed" alone left a form client guessing). */
function describe(envelope: ErrorEnvelope): string {
  const fields = envelope.code === 'VALIDATION_ERROR' ? (envelope.meta?.errors ?? []) : [];
  return fields.length ? fields.map((field) => field.error).join('; ') : envelope.message;
}

/**
 * Off-the-shelf OAuth clients send form-encoded requests and expect the RFC's JSON error body
 * (`error`, `error_description`), not the envelope; JSON callers get the envelope as everywhere else
 * (the app's catch-all filter, which renders both).
 */
@Catch()
export class OAuthProtocolFilter implements ExceptionFilter {
  constructor(private readonly errors: ErrorAnswers) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    if (!isFormRequest(request)) return this.errors.catch(exception, host);
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { envelope, headers } = this.errors.render(exception);
    const error = RFC_ERRORS[envelope.code] ?? (envelope.status >= 500 ? 'server_error' : 'invalid_request');
    if (reply.sent) return;
    if (headers) void reply.headers(headers);
    if (error === 'invalid_client' && request.headers.authorization?.startsWith('Basic '))
      void reply.header('www-authenticate', 'Basic realm="oauth"');
    void reply
      .code(envelope.status)
      .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
      .type('application/json; charset=utf-8')
      .send({ error, error_description: describe(envelope) });
  }
}
