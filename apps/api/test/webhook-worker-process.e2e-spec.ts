import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { getPriority } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { TEST_DB_ENV, createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { buildApp, BuiltDist, eventually, spawnBuiltWorker, SpawnedProcess } from './support/built-app';
import { asBrowser } from './support/visitor';

// The worker process reaches the API's PostgreSQL; a run on the embedded database skips this file.
const onPostgres = process.env[TEST_DB_ENV.kind] === 'postgres';

interface Held {
  body: string;
  headers: Record<string, string>;
  answer(): void;
}

/** A receiver on loopback that keeps every request; while `holding`, it answers none until told to. */
async function startHoldingReceiver() {
  const got: Held[] = [];
  let holding = false;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = () => {
        res.statusCode = 204;
        res.end();
      };
      got.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers as Record<string, string>, answer });
      if (!holding) answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    hold: (on: boolean) => (holding = on),
    events: () => got.map((g) => JSON.parse(g.body) as { type: string; data: Record<string, any> }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The nice value of each thread of a process (Linux: field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNices(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // After the command name's closing parenthesis: state is field 3, nice field 19.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

/**
 * The webhooks' delivery worker as a process of its own (`node dist/apps/api/src/worker.js`, `npm run
 * worker`) beside an API with WEBHOOKS_WORKER=false: the API only enqueues, the worker sends, at the lowest
 * scheduling priority, and stops on SIGTERM without leaving a delivery claimed.
 */
(onPostgres ? describe : describe.skip)('the webhook delivery worker as a separate process', () => {
  let database: TestDatabase;
  let api: TestApp;
  let dist: BuiltDist;
  let worker: SpawnedProcess | undefined;
  let ada: TestAccount;
  let receiver: Awaited<ReturnType<typeof startHoldingReceiver>>;
  let secret: string;
  const shared: Record<string, string> = {
    SECRET_KEY: randomBytes(32).toString('hex'),
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_POLL_INTERVAL: '20',
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startHoldingReceiver();
    [api, dist] = await Promise.all([
      startTestApp({ database, env: { ...shared, WEBHOOKS_WORKER: 'false', CLICK_FLUSH_INTERVAL: '50' } }),
      buildApp(),
    ]);
    ada = await createAccount(api);
    const made = await api.request('POST', '/user/webhooks', {
      token: ada.accessToken,
      body: { url: receiver.url, events: ['link.created', 'link.clicked'] },
    });
    if (made.status !== 200) throw new Error(made.text);
    secret = made.body.data.secret;
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await receiver?.close();
    await database?.drop();
    dist?.remove();
  });

  const deliveries = () =>
    api.dataSource.query<{ event_type: string; status: string; attempts: number }[]>(
      'SELECT event_type, status, attempts FROM webhook_deliveries ORDER BY created_at',
    );
  const visits = async (linkId: string) =>
    Number(
      (await api.dataSource.query('SELECT COALESCE(sum(visits), 0)::int AS visits FROM link_daily_stats WHERE link_id = $1', [linkId]))[0]
        .visits,
    );

  it(
    'sends, signed with the shared SECRET_KEY, the events an API with ' + 'WEBHOOKS_WORKER=false enqueued, at nice 19 on every thread',
    async () => {
      const created = await api.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'https://dest.example/one', slug: 'wp-one' },
      });
      expect(created.status).toBe(200);
      const linkId: string = created.body.data.id;
      for (let i = 0; i < 3; i++)
        expect((await fetch(`${api.baseUrl}/wp-one`, { redirect: 'manual', headers: asBrowser() })).status).toBe(302);
      // The clicks' write (their link.clicked events go with it) is done; the API, its worker off, sent nothing.
      await eventually('the three clicks are written', async () => (await visits(linkId)) === 3);
      expect(await deliveries()).toEqual([{ event_type: 'link.created', status: 'pending', attempts: 0 }]);
      expect(receiver.got).toHaveLength(0);

      // WEBHOOKS_WORKER=false in its environment too (one settings file for both): the worker process runs regardless.
      worker = await spawnBuiltWorker(dist, {
        ...shared,
        DATABASE_URL: database.config.kind === 'postgres' ? database.config.url : '',
        WEBHOOKS_WORKER: 'false',
      });
      const pid = worker.child.pid as number;
      expect(getPriority(pid)).toBe(19);
      if (existsSync(`/proc/${pid}/task`)) expect(new Set(threadNices(pid))).toEqual(new Set([19]));

      await eventually('the worker sent the four events', async () => receiver.got.length >= 4);
      expect(
        receiver
          .events()
          .map((e) => e.type)
          .sort(),
      ).toEqual(['link.clicked', 'link.clicked', 'link.clicked', 'link.created']);
      expect(receiver.events().every((e) => (e.type === 'link.created' ? e.data['id'] : e.data['linkId']) === linkId)).toBe(true);
      const wh = new Webhook(secret);
      for (const g of receiver.got) expect(() => wh.verify(g.body, g.headers)).not.toThrow();
      await eventually('every delivery is recorded delivered', async () => (await deliveries()).every((d) => d.status === 'delivered'));
      expect(await deliveries()).toHaveLength(4);
    },
  );

  it('on SIGTERM during a send, waits for the answer, records it and exits 0: no delivery is left claimed (under its lease)', async () => {
    const running = worker;
    if (!running) throw new Error('the first test starts the worker');
    receiver.hold(true);
    const before = receiver.got.length;
    expect(
      (await api.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://dest.example/two', slug: 'wp-two' } }))
        .status,
    ).toBe(200);
    await eventually('the worker is sending link.created of wp-two', async () => receiver.got.length > before);
    running.child.kill('SIGTERM');
    await eventually('the worker heard the signal', async () => running.output().includes('webhook delivery worker stopping (SIGTERM)'));
    // Still running: it waits for the send it started.
    expect(running.running()).toBe(true);
    receiver.got[before].answer();
    expect(await running.exited).toEqual({ code: 0, signal: null });
    const rows = await deliveries();
    expect(rows).toHaveLength(5);
    // Recorded, not left pending with its attempt pushed a lease (60 s) ahead.
    expect(rows.filter((d) => d.status !== 'delivered')).toEqual([]);
    expect(rows[4]).toEqual({ event_type: 'link.created', status: 'delivered', attempts: 1 });
  });
});
