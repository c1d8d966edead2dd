import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AesGcmSecretBox } from '@lnk/identity/adapter-crypto';
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

  // An upgrade must not lock out accounts whose TOTP secrets were sealed under SECRET_KEY itself.
  it('builds a secret box that still opens what was sealed under the master key before keys were derived', () => {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', master, nonce);
    const body = Buffer.concat([cipher.update('JBSWY3DPEHPK3PXP', 'utf8'), cipher.final()]);
    const sealedBefore = ['v1', nonce, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
    const keys = applicationKeys(config);
    const box = new AesGcmSecretBox(keys.sealing, keys.legacySealing);
    expect(box.open(sealedBefore)).toBe('JBSWY3DPEHPK3PXP');
    expect(new AesGcmSecretBox(keys.sealing).open(box.seal('x'))).toBe('x');
  });

  it('keeps the key file it made under DATA_DIR when SECRET_KEY is unset (outside production)', () => {
    const withoutKey = { ...loadConfig({}), dataDir: mkdtempSync(join(tmpdir(), 'lnk-keys-')) };
    expect(secretKeyOf(withoutKey).equals(secretKeyOf(withoutKey))).toBe(true);
  });
});
