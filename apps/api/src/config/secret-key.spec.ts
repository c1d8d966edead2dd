import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';
import { applicationKeys, deriveKey, KEY_PURPOSES, secretKeyOf } from './secret-key';

describe('application keys', () => {
  const master = Buffer.alloc(32, 1);
  const config = { ...loadConfig({ SECRET_KEY: master.toString('hex') }), dataDir: mkdtempSync(join(tmpdir(), 'lnk-keys-')) };

  // One key for two algorithms (AES-GCM sealing, HMAC signing) would let a weakness in one use reach the other.
  it('derives a different key for sealing and for signing, neither of them the master key', () => {
    const keys = applicationKeys(config);
    expect(keys.sealing).toHaveLength(32);
    expect(keys.signing).toHaveLength(32);
    expect(keys.sealing.equals(keys.signing)).toBe(false);
    expect(keys.sealing.equals(master)).toBe(false);
    expect(keys.signing.equals(master)).toBe(false);
    expect(keys.legacySealing.equals(master)).toBe(true);
  });

  it('derives the same keys from the same master key on every instance', () => {
    expect(applicationKeys(config).sealing.equals(deriveKey(Buffer.alloc(32, 1), KEY_PURPOSES.sealTotp))).toBe(true);
    expect(deriveKey(Buffer.alloc(32, 2), KEY_PURPOSES.sealTotp).equals(applicationKeys(config).sealing)).toBe(false);
  });

  it('keeps the key file it made under DATA_DIR when SECRET_KEY is unset (outside production)', () => {
    const withoutKey = { ...loadConfig({}), dataDir: mkdtempSync(join(tmpdir(), 'lnk-keys-')) };
    expect(secretKeyOf(withoutKey).equals(secretKeyOf(withoutKey))).toBe(true);
  });
});
