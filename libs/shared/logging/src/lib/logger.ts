import pino, { Logger } from 'pino';
import type { LogFormat } from '@lnk/shared/config';
import { logDestination } from './log-destination';

/**
 * The log on stdout (the CLI: stderr, its stdout is its answer), as LOG_FORMAT says: JSON lines, or
 * readable lines on a terminal. Credentials never reach a log line, wherever they appear in an object,
 * in either format (pino redacts before the line is formatted).
 */
export function createLogger(config: { logLevel: string; logFormat: LogFormat | null }, fd = 1): Logger {
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
