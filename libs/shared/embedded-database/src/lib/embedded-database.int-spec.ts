import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { claimEmbeddedDatabase, EMBEDDED_SOCKET_PORT, embeddedSocketDir, lastReadyStatus } from './embedded-database';
import { PgliteHost } from './pglite-driver';

describe('lastReadyStatus', () => {
  const ready = (status: string) => [0x5a, 0, 0, 0, 5, status.charCodeAt(0)];
  const complete = [0x43, 0, 0, 0, 10, ...Buffer.from('BEGIN'), 0];

  it('reads the status of the last ReadyForQuery, and nothing when there is none', () => {
    expect(lastReadyStatus(Uint8Array.from([...complete, ...ready('T')]))).toBe('T');
    expect(lastReadyStatus(Uint8Array.from([...ready('T'), ...complete, ...ready('I')]))).toBe('I');
    expect(lastReadyStatus(Uint8Array.from(complete))).toBeNull();
    expect(lastReadyStatus(new Uint8Array())).toBeNull();
  });
});

/**
 * The server's own connections and the CLI's socket connection share PGlite's one session. Were a socket
 * client's statements to run while a transaction of the server is open (or the reverse), they would
 * commit or roll back with it: a user made by the CLI lost with a failed request of the server.
 */
describe('the socket the holder of the embedded database serves it on', () => {
  let dataDir: string;
  let host: PgliteHost;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lnk-embedded-'));
    host = await claimEmbeddedDatabase(dataDir, { name: 'a test' });
    await (await host.db()).exec('CREATE TABLE notes (body text NOT NULL)');
  }, 60_000);

  afterAll(async () => {
    await host?.release();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function connect(): Promise<Client> {
    const client = new Client({ host: embeddedSocketDir(dataDir), port: EMBEDDED_SOCKET_PORT, user: 'postgres', database: 'postgres' });
    await client.connect();
    return client;
  }

  async function bodies(): Promise<string[]> {
    const release = await host.session.acquire();
    try {
      return (await (await host.db()).query<{ body: string }>('SELECT body FROM notes ORDER BY body')).rows.map((r) => r.body);
    } finally {
      release();
    }
  }

  // Only the owner of DATA_DIR may reach the database through it: there is no password.
  it('lives in a folder only the owner can enter', () => {
    expect(statSync(embeddedSocketDir(dataDir)).mode & 0o777).toBe(0o700);
    expect(statSync(join(embeddedSocketDir(dataDir), `.s.PGSQL.${EMBEDDED_SOCKET_PORT}`)).mode & 0o077).toBe(0);
  });

  it("keeps a socket client's transaction whole: the holder's statements wait until it ends", async () => {
    const client = await connect();
    try {
      await client.query('BEGIN');
      await client.query("INSERT INTO notes VALUES ('cli, rolled back')");
      // The holder asks for the session while the client's transaction is open...
      const holderTurn = host.session.acquire();
      await client.query('ROLLBACK');
      const release = await holderTurn;
      try {
        // ...and gets it with the transaction over: its own write is no part of it.
        await (await host.db()).query("INSERT INTO notes VALUES ('holder')");
      } finally {
        release();
      }
      await client.query("INSERT INTO notes VALUES ('cli')");
    } finally {
      await client.end();
    }
    expect(await bodies()).toEqual(['cli', 'holder']);
  });

  it("keeps the holder's transaction whole: a socket client's statements wait until it ends", async () => {
    const client = await connect();
    const release = await host.session.acquire();
    const db = await host.db();
    await db.exec('BEGIN');
    await db.query("INSERT INTO notes VALUES ('holder, rolled back')");
    // The client's write waits for the session; had it run now, the ROLLBACK below would take it too.
    const write = client.query("INSERT INTO notes VALUES ('cli, kept')");
    await db.exec('ROLLBACK');
    release();
    await write;
    await client.end();
    expect(await bodies()).toEqual(['cli', 'cli, kept', 'holder']);
  });

  it('rolls back what a client that went away left open, and hands the session on', async () => {
    const client = await connect();
    await client.query('BEGIN');
    await client.query("INSERT INTO notes VALUES ('abandoned')");
    // The connection dropped as by a crashed process: no Terminate, no ROLLBACK.
    client.on('error', () => undefined);
    const gone = new Promise((done) => client.once('end', done));
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    await gone;
    expect(await bodies()).toEqual(['cli', 'cli, kept', 'holder']);
    // No transaction is left open under the holder: what it writes now is committed for everyone.
    const release = await host.session.acquire();
    try {
      await (await host.db()).query("INSERT INTO notes VALUES ('after')");
    } finally {
      release();
    }
    const reader = await connect();
    try {
      expect((await reader.query("SELECT count(*)::int AS n FROM notes WHERE body = 'after'")).rows[0].n).toBe(1);
    } finally {
      await reader.end();
    }
  });

  // A socket's path is limited (103 bytes on macOS): refused with what to do, not a bind error later.
  it('refuses a DATA_DIR too long for its socket, saying so', async () => {
    await expect(claimEmbeddedDatabase(join(dataDir, 'x'.repeat(100)), { name: 'a test' })).rejects.toThrow(
      /too long a path .* choose a shorter DATA_DIR/,
    );
  });

  it('is shared by every claim in the process, and let go by the last', async () => {
    const second = await claimEmbeddedDatabase(dataDir, { name: 'a test' });
    expect(second.session).toBe(host.session);
    expect(await second.db()).toBe(await host.db());
    await second.release();
    expect((await (await host.db()).query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
