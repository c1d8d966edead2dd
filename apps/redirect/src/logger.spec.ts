import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from './logger';

describe("the redirect app's logger", () => {
  // Readable lines are made from the JSON line pino wrote, so a credential the redaction missed would be printed as plainly.
  it('redacts a password and an authorization header in readable lines (LOG_FORMAT=pretty) too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lnk-redirect-log-'));
    const fd = openSync(join(dir, 'log'), 'w');
    try {
      const logger = createLogger({ logLevel: 'info', logFormat: 'pretty' }, fd);
      logger.warn(
        { form: { password: 'link-Password-42' }, headers: { authorization: 'Bearer at_SecretAccess789' } },
        'password form refused',
      );
      const text = readFileSync(join(dir, 'log'), 'utf8');
      expect(text).toMatch(/^\[[\d:.]+\] WARN: password form refused \{.*\}\n$/);
      expect(text).not.toContain('link-Password-42');
      expect(text).not.toContain('at_SecretAccess789');
      expect(text.match(/\[redacted\]/g)).toHaveLength(2);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
