import pino, { Logger } from 'pino';
import { logDestination } from '@lnk/shared/logging';
import type { RedirectConfig } from './config';

/**
 * The log on stdout as the API writes it: JSON lines, or readable lines on a terminal (LOG_FORMAT). No
 * request body, header or query is ever logged here; the redaction guards against one that would be.
 */
export function createLogger(config: Pick<RedirectConfig, 'logLevel' | 'logFormat'>, fd = 1): Logger {
  return pino(
    {
      level: config.logLevel,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['*.password', '*.authorization'], censor: '[redacted]' },
    },
    logDestination(config.logFormat, fd),
  );
}
