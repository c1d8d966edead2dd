import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from './app-config';

/**
 * The key sealing TOTP secrets: SECRET_KEY when set, else a random key kept in DATA_DIR/secret.key
 * (made on first start, readable only by its owner) so the embedded default needs no set-up.
 */
export function secretKeyOf(config: AppConfig): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = join(config.dataDir, 'secret.key');
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  return key;
}
