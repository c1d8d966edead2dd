import { isatty } from 'node:tty';
import pino, { DestinationStream } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { LogFormat } from '@lnk/shared/config';

/** LOG_FORMAT as set, or, unset, by whether the log's output (a file descriptor) is a terminal. */
export function logFormatFor(format: LogFormat | null, fd: number): LogFormat {
  return format ?? (isatty(fd) ? 'pretty' : 'json');
}

/**
 * Where a pino logger writes, in the format LOG_FORMAT asks for. JSON lines: pino's own destination
 * (buffered on stdout; stderr synchronous, as Node writes it). Readable lines: each line pino has made,
 * redaction done, turned by pino-pretty's formatter into text and written at once, in this process. Not
 * pino-pretty's stream nor a transport: their worker thread or stream pipeline would hold lines a
 * `process.exit` loses (the last lines of a shutdown), and it is meant for a person at a terminal, where
 * a synchronous write costs nothing worth a thread.
 */
export function logDestination(format: LogFormat | null, fd: number): DestinationStream {
  if (logFormatFor(format, fd) === 'json') return pino.destination({ fd, sync: fd === 2 });
  const pretty = prettyFactory({
    // Colours for a terminal only (and not with NO_COLOR, https://no-color.org): a file gets plain text.
    colorize: isatty(fd) && !process.env['NO_COLOR'],
    translateTime: 'SYS:HH:MM:ss.l',
    // One event a line, its fields after the message, as the JSON lines have them.
    singleLine: true,
  });
  const out = pino.destination({ fd, sync: true });
  return { write: (line: string) => out.write(pretty(line)) };
}
