import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimEmbeddedDatabase, embeddedSocketDir, PgliteHost } from '@lnk/shared/embedded-database';
import { createSocketDataSource } from './create-data-source';
import { prepared, sql } from './sql';

/** The operator CLI's DataSource while the server holds the embedded database: through the socket it serves. */
describe('a DataSource on the socket of the embedded database', () => {
  let dataDir: string;
  let host: PgliteHost;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lnk-embedded-'));
    host = await claimEmbeddedDatabase(dataDir, { name: 'a test' });
    await (await host.db()).exec("CREATE TABLE notes (body text NOT NULL); INSERT INTO notes VALUES ('kept')");
  }, 60_000);

  afterAll(async () => {
    await host?.release();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // The operator CLI runs the app's statements over this socket, into the one session every client shares
  // (handed from client to client between statements): a statement one client prepared by name would be
  // there for the next, whose node-pg would prepare the name again ("already exists": a second CLI
  // command creating a link failed so).
  it("runs the app's prepared statements as text for every socket client, two at once included", async () => {
    const count = prepared("SELECT count(*)::int AS n FROM notes WHERE body <> 'none'");
    const clients = [createSocketDataSource(embeddedSocketDir(dataDir), []), createSocketDataSource(embeddedSocketDir(dataDir), [])];
    await Promise.all(clients.map((client) => client.initialize()));
    try {
      for (let call = 0; call < 2; call++) {
        for (const client of clients) expect((await sql<{ n: number }>(client, count)).rows[0].n).toBeGreaterThan(0);
      }
    } finally {
      await Promise.all(clients.map((client) => client.destroy()));
    }
  });
});
