import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDataDir } from '@lnk/shared/embedded-database';
import { AppConfig } from './app-config';

/**
 * The master key: SECRET_KEY when set, else a random key kept in DATA_DIR/secret.key (made on first
 * start, readable only by its owner) so the embedded default needs no set-up. Production requires
 * SECRET_KEY (see loadConfig): a key file per instance would differ from one instance to the next.
 */
export function secretKeyOf(config: AppConfig): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = join(config.dataDir, 'secret.key');
  // The key file is only as private as its folder (another user could swap it in one they own).
  ensurePrivateDataDir(config.dataDir);
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  return key;
}

/** One label per use: a key derived for one purpose is useless for another. */
export const KEY_PURPOSES = {
  sealTotp: 'lnk/seal/totp',
  signAuthorize: 'lnk/sign/authorize',
  sealWebhookSecret: 'lnk/seal/webhook-secret',
  signDashboardSignIn: 'lnk/sign/dashboard-sign-in',
  signCursors: 'lnk/sign/cursors',
} as const;

/** A 32-byte key for one purpose, derived from the master key with HKDF-SHA256 (RFC 5869). */
export function deriveKey(master: Buffer, purpose: (typeof KEY_PURPOSES)[keyof typeof KEY_PURPOSES]): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32));
}

/**
 * The keys the service uses, each derived from the master key for its one purpose. `legacySealing` is
 * the master key itself, which sealed TOTP secrets before keys were derived: those still open with it.
 */
export function applicationKeys(config: AppConfig): { sealing: Buffer; signing: Buffer; dashboardSignIn: Buffer; legacySealing: Buffer } {
  const master = secretKeyOf(config);
  return {
    sealing: deriveKey(master, KEY_PURPOSES.sealTotp),
    signing: deriveKey(master, KEY_PURPOSES.signAuthorize),
    dashboardSignIn: deriveKey(master, KEY_PURPOSES.signDashboardSignIn),
    legacySealing: master,
  };
}
