import { Writable } from 'node:stream';
import pino from 'pino';
import { RequestLogger } from './request-logger';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger = pino(
    { level, base: undefined, timestamp: false, redact: { paths: ['req.headers.authorization', '*.token'], censor: '[redacted]' } },
    stream,
  );
  return { logger, lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('RequestLogger', () => {
  it('writes the lines a pino child would, bindings, redaction and all', async () => {
    const lazy = capture('info');
    const eager = capture('info');
    const request = new RequestLogger(lazy.logger, { reqId: 'r-1' }, {});
    const child = eager.logger.child({ reqId: 'r-1' }, {});
    for (const log of [request, child]) {
      log.info({ method: 'GET', path: '/user/me' }, 'request completed');
      log.debug('not written at info');
      log.warn({ body: { token: 'secret' } }, 'with %s', 'format');
      log.error(new Error('boom'));
      log.child({ step: 2 }).info('nested');
    }
    await flush();
    expect(lazy.lines).toEqual(eager.lines);
    expect(lazy.lines.map((line) => line['msg'])).toEqual(['request completed', 'with format', 'boom', 'nested']);
    expect(lazy.lines[1]).toMatchObject({ reqId: 'r-1', body: { token: '[redacted]' } });
  });

  it('makes no child until a line passes the level, and honours a level given to the child', async () => {
    const { logger, lines } = capture('warn');
    const child = jest.spyOn(logger, 'child');
    const request = new RequestLogger(logger, { reqId: 'r-2' }, {});
    request.info('below warn');
    request.debug('below warn');
    expect(child).not.toHaveBeenCalled();
    expect(request.level).toBe('warn');
    request.warn('written');
    expect(child).toHaveBeenCalledTimes(1);
    const verbose = new RequestLogger(logger, { reqId: 'r-3' }, { level: 'debug' });
    verbose.debug('written at the route level');
    const silent = new RequestLogger(logger, { reqId: 'r-4' }, { level: 'silent' });
    silent.fatal('never');
    await flush();
    expect(lines.map((line) => [line['reqId'], line['msg']])).toEqual([
      ['r-2', 'written'],
      ['r-3', 'written at the route level'],
    ]);
  });
});
