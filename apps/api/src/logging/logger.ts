import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { logDestination } from '@lnk/shared/logging';
import type { AppConfig } from '../config/app-config';

/**
 * The log on stdout (the CLI: stderr, its stdout is its answer), as LOG_FORMAT says: JSON lines, or
 * readable lines on a terminal. Credentials never reach a log line, wherever they appear in an object,
 * in either format (pino redacts before the line is formatted).
 */
export function createLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>, fd = 1): Logger {
  return pino(
    {
    level: config.logLevel,
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
    logDestination(config.logFormat, fd),
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
