import { LoggerService } from '@nestjs/common';
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

/**
 * Nest's own start-up chatter: a line per module, per controller and per route (85 "Mapped {...}" lines).
 * Logged at debug: at info a start reads as its steps (database, migrations, listening, docs).
 */
const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Nest's own messages (start-up, errors) through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    if (context !== undefined && FRAMEWORK_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
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
