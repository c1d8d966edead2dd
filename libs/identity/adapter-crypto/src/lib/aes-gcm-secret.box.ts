import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SecretBox } from '@lnk/identity/domain';

/**
 * AES-256-GCM with a random 96-bit nonce per value; stored as v2.<nonce>.<tag>.<ciphertext> in base64url.
 * `v1` values were sealed under the master key itself, before the sealing key was derived from it: they
 * open with `legacyKey` (when given) so an upgrade locks no one out, and are sealed as v2 when next written.
 */
export class AesGcmSecretBox extends SecretBox {
  constructor(
    private readonly key: Buffer,
    private readonly legacyKey: Buffer | null = null,
  ) {
    super();
    if (key.length !== 32 || (legacyKey && legacyKey.length !== 32)) throw new Error('the secret box keys must be 32 bytes');
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v2', nonce, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string): string | null {
    const [version, nonce, tag, body] = sealed.split('.');
    const key = version === 'v2' ? this.key : version === 'v1' ? this.legacyKey : null;
    if (!key || !nonce || !tag || body === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
