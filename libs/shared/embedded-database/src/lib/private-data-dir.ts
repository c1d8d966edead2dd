import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** DATA_DIR cannot be used: another user owns it, or other users may enter it. */
export class DataDirNotPrivateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirNotPrivateError';
  }
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/**
 * DATA_DIR holds the embedded database (e-mail addresses, password hashes) and the key file: only the
 * process's user may enter it. Made 0700 when missing. One that exists is taken as it is only when it is
 * a folder this user owns that no one else may enter: a folder another user owns could be read, or
 * swapped, by them; one open to others showed its files to everyone on the machine. Changing the mode of
 * a folder someone made on purpose is the operator's decision, so the refusal says what to run.
 * Windows has no such modes: there the folder is only made.
 */
export function ensurePrivateDataDir(dataDir: string): void {
  const dir = resolve(dataDir);
  if (process.platform === 'win32') {
    mkdirSync(dir, { recursive: true });
    return;
  }
  try {
    mkdirSync(dir, { mode: 0o700 });
    // The umask could only have taken bits away; what is left is the owner's.
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      // Its parents are missing: made for it, private too.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return;
    }
    if (code !== 'EEXIST') throw error;
  }
  const stats = statSync(dir);
  if (!stats.isDirectory()) throw new DataDirNotPrivateError(`DATA_DIR ${dir} is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new DataDirNotPrivateError(
      `DATA_DIR ${dir} belongs to another user (uid ${stats.uid}; this process runs as ` +
        `uid ${uid}): give it to this user (chown) or choose another DATA_DIR`,
    );
  }
  if (stats.mode & 0o077) {
    throw new DataDirNotPrivateError(
      `DATA_DIR ${dir} is open to other users (mode ${octal(stats.mode)}): make ` +
        `it private with chmod 700 ${dir}, or choose another DATA_DIR`,
    );
  }
}

/**
 * Takes group and other permissions off everything under `dir` (symbolic links are left alone: chmod
 * would follow them). PGlite writes its initial files 0666 and some files it makes again at each start
 * 0644, whatever the process's umask; PostgreSQL's own later files are 0600.
 */
export function removeOthersAccess(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    try {
      const mode = lstatSync(path).mode;
      if (mode & 0o077) chmodSync(path, mode & 0o700);
      if (entry.isDirectory()) removeOthersAccess(path);
    } catch (error) {
      // Removed meanwhile (PostgreSQL recycles WAL segments): nothing left to protect.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
