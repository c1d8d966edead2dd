import pino, { Logger } from 'pino';
import type { RedirectConfig } from './config';

/** JSON lines on stdout, as the API writes them. No request body, header or query is ever logged here. */
export function createLogger(level: RedirectConfig['logLevel']): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: ['*.password', '*.authorization'], censor: '[redacted]' } });
}
