import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createLogger } from './logger';

/** What the service's logger wrote to a file with LOG_FORMAT=pretty (written at once: no flush to wait for). */
function writtenPretty(log: (logger: Logger) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'lnk-log-'));
  const fd = openSync(join(dir, 'log'), 'w');
  try {
    log(createLogger({ logLevel: 'info', logFormat: 'pretty' }, fd));
    return readFileSync(join(dir, 'log'), 'utf8');
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

const SECRETS = {
  password: 'pw-Hunter2-secret',
  token: 'tkn_SecretTokenValue123',
  client_secret: 'cs_SecretValue456',
  authorization: 'Bearer at_SecretAccess789',
};

describe('createLogger', () => {
  // Readable lines are made from the JSON line pino wrote, so a credential the redaction missed would be
  // printed as plainly. (The JSON lines: faults/no-secrets-in-logs.e2e-spec.ts, through every flow.)
  it('redacts passwords, tokens, client secrets and authorization headers in readable lines (LOG_FORMAT=pretty) too', () => {
    const text = writtenPretty((logger) => {
      logger.info(
        {
          body: { password: SECRETS.password, token: SECRETS.token, client_secret: SECRETS.client_secret },
          req: { headers: { authorization: SECRETS.authorization } },
        },
        'a request with credentials',
      );
    });
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(text.match(/\[redacted\]/g)).toHaveLength(4);
    expect(text).toContain('INFO: a request with credentials');
  });

  it('writes, with LOG_FORMAT=pretty, lines a person reads: no JSON object at the start, the level and message in words', () => {
    const text = writtenPretty((logger) => logger.info({ urls: ['http://127.0.0.1:3000'] }, 'listening on http://127.0.0.1:3000'));
    expect(text).not.toMatch(/^\{/m);
    expect(text).toMatch(/^\[[\d:.]+\] INFO: listening on http:\/\/127\.0\.0\.1:3000 \{"urls":\["http:\/\/127\.0\.0\.1:3000"\]\}\n$/);
  });
});
