import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimEmbeddedDatabase } from './embedded-database';
import { DataDirNotPrivateError, ensurePrivateDataDir } from './private-data-dir';

/** Every file and folder under `dir` whose mode lets its group or others in, with that mode. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    const mode = lstatSync(path).mode;
    if (!entry.isSymbolicLink() && mode & 0o077) found.push(`${path} ${(mode & 0o777).toString(8)}`);
  }
  return found;
}

/**
 * The audit (issue 27, item 6): with DATA_DIR made beforehand (0755, or 0777 on a shared machine), the
 * embedded database's files, WAL included, were 0666: another local user read e-mail addresses and
 * bcrypt hashes from them.
 */
describe('DATA_DIR of the embedded database', () => {
  let parent: string;
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'lnk-private-'));
  });
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it.each(['777', '755', '750', '701'])(
    'refuses an existing DATA_DIR open to other users (mode 0%s) before writing anything in it, saying what to run',
    async (octal) => {
      const mode = parseInt(octal, 8);
      const dataDir = join(parent, 'data');
      mkdirSync(dataDir);
      chmodSync(dataDir, mode);
      const refusal = claimEmbeddedDatabase(dataDir, { name: 'a test' });
      await expect(refusal).rejects.toThrow(DataDirNotPrivateError);
      await expect(refusal).rejects.toThrow(
        `DATA_DIR ${dataDir} is open to other users (mode 0${mode.toString(8)}): make it private with chmod 700 ${dataDir}`,
      );
      expect(readdirSync(dataDir)).toEqual([]);
      expect(statSync(dataDir).mode & 0o777).toBe(mode);
    },
  );

  it(
    'makes a missing DATA_DIR (and its missing parents) 0700, and a start ' + 'leaves no file under it that group or others may read',
    async () => {
      const dataDir = join(parent, 'deeper', 'data');
      const host = await claimEmbeddedDatabase(dataDir, { name: 'a test' });
      try {
        const db = await host.db();
        await db.exec(
          'CREATE TABLE accounts (email text, password_hash text); INSERT INTO accounts ' +
            "SELECT 'a' || g || '@example.com', '$2b$12$' || g FROM generate_series(1, 5000) g; CHECKPOINT",
        );
        expect(openToOthers(dataDir)).toEqual([]);
      } finally {
        await host.release();
      }
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(parent, 'deeper')).mode & 0o077).toBe(0);
      // A second start (PGlite writes some files again as it opens) leaves them private too.
      const again = await claimEmbeddedDatabase(dataDir, { name: 'a test' });
      try {
        expect((await (await again.db()).query<{ n: number }>('SELECT count(*)::int AS n FROM accounts')).rows[0].n).toBe(5000);
        expect(openToOthers(dataDir)).toEqual([]);
      } finally {
        await again.release();
      }
      expect(openToOthers(dataDir)).toEqual([]);
    },
    60_000,
  );

  it('takes an existing private DATA_DIR of its own user as it is', () => {
    const dataDir = join(parent, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    expect(() => ensurePrivateDataDir(dataDir)).not.toThrow();
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('refuses a DATA_DIR that is a file', () => {
    const dataDir = join(parent, 'data');
    writeFileSync(dataDir, '');
    expect(() => ensurePrivateDataDir(dataDir)).toThrow(`DATA_DIR ${dataDir} is not a folder`);
  });

  // Giving the folder to another user needs root; run as anyone else, this case cannot be set up.
  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot(
    'refuses a private DATA_DIR that another user owns (runs as root only: skipped otherwise, as a folder cannot be given away)',
    async () => {
      const dataDir = join(parent, 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      chownSync(dataDir, 65534, 65534);
      await expect(claimEmbeddedDatabase(dataDir, { name: 'a test' })).rejects.toThrow(
        `DATA_DIR ${dataDir} belongs to another user (uid 65534; this process runs as ` +
          'uid 0): give it to this user (chown) or choose another DATA_DIR',
      );
      expect(readdirSync(dataDir)).toEqual([]);
    },
  );
});
