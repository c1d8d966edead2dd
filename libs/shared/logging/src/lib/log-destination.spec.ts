import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { EventEmitter, once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { LogFormat } from '@lnk/shared/config';
import { logDestination, logFormatFor } from './log-destination';

/** What a logger writing to a file (not a terminal) in `format` wrote, once its destination has finished. */
async function written(format: LogFormat | null, log: (logger: pino.Logger) => void): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'lnk-log-'));
  const fd = openSync(join(dir, 'log'), 'w');
  try {
    const destination = logDestination(format, fd);
    log(pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination));
    // pino's JSON destination (an EventEmitter) writes asynchronously: ended, it writes what it holds, then closes the file.
    if (destination instanceof EventEmitter && 'end' in destination && typeof destination.end === 'function') {
      const closed = once(destination, 'close');
      destination.end();
      await closed;
    } else closeSync(fd);
    return readFileSync(join(dir, 'log'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('logDestination', () => {
  it('writes JSON lines when asked, and by default when the output is not a terminal', async () => {
    for (const format of ['json', null] as const) {
      const [line, ...rest] = (await written(format, (logger) => logger.info({ port: 3000 }, 'listening'))).split('\n');
      expect(rest).toEqual(['']);
      expect(JSON.parse(line)).toEqual({ level: 30, time: expect.any(String), port: 3000, msg: 'listening' });
    }
  });

  it(
    'writes readable lines with LOG_FORMAT=pretty: time, level and message, ' + 'the fields after on the same line, no colours in a file',
    async () => {
      const text = await written('pretty', (logger) => {
        logger.info({ method: 'GET', path: '/user/me', statusCode: 401 }, 'request completed');
        logger.warn('redis unreachable');
      });
      const lines = text.split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: request completed \{"method":"GET","path":"\/user\/me","statusCode":401\}$/,
      );
      expect(lines[1]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] WARN: redis unreachable$/);
      expect(text).not.toContain('\u001b[');
    },
  );

  // A terminal's case is the built app's, run under a pseudo-terminal (apps/api/test/faults/start-up-log.e2e-spec.ts).
  it('takes LOG_FORMAT as set, whatever the output; unset, JSON for a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lnk-log-'));
    const fd = openSync(join(dir, 'log'), 'w');
    try {
      expect([logFormatFor('pretty', fd), logFormatFor('json', fd), logFormatFor(null, fd)]).toEqual(['pretty', 'json', 'json']);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
