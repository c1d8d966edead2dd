import { LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino, { Logger } from 'pino';
import type { LogLevel } from '../config/app-config';

/** JSON lines on stdout. Credentials never reach a log line, wherever they appear in an object. */
export function createLogger(level: LogLevel, fd: 1 | 2 = 1): Logger {
  return pino(
    {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.currentPassword',
        '*.newPassword',
        '*.token',
        '*.access_token',
        '*.refresh_token',
        '*.client_secret',
        '*.clientSecret',
        '*.secret',
        '*.otp',
        '*.code',
      ],
      censor: '[redacted]',
    },
    },
    pino.destination({ fd, sync: fd === 2 }),
  );
}

/** Nest's own messages (start-up, errors) through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

/**
 * One line per answered request at debug level, under the request's reqId (the X-Request-Id it was
 * answered with). Fastify's own request log is off; this one gives the path without its query, which
 * may carry a token.
 */
export function logRequests(app: NestFastifyApplication): void {
  app.getHttpAdapter().getInstance().addHook('onResponse', async (request, reply) => {
    request.log.debug({ method: request.method, path: request.url.split('?')[0], statusCode: reply.statusCode, responseTime: reply.elapsedTime }, 'request completed');
  });
}
