import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookWorker } from './webhook-worker';

/** A promise the test settles. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const settings = { worker: true, pollIntervalMs: 60_000, batchSize: 2, expiryScanIntervalMs: 60_000 };
type Run = { expanded: number; claimed: number; room: number };

/** The delivery use case as the worker sees it: each run, each send's end and each run's sends settled by the test. */
function fakeDeliver() {
  const runs: ReturnType<typeof deferred<Run>>[] = [];
  const sent: ReturnType<typeof deferred<void>>[] = [];
  let ended = deferred<void>();
  return {
    runs,
    sent,
    endSend: () => {
      const was = ended;
      ended = deferred<void>();
      was.resolve();
    },
    deliver: {
      execute: () => {
        const sendEnded = ended.promise;
        runs.push(deferred());
        sent.push(deferred());
        const own = sent[sent.length - 1].promise;
        return runs[runs.length - 1].promise.then((run) => ({ ...run, sendEnded, sent: own }));
      },
      purge: async () => undefined,
    },
  };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setImmediate(r));
};

// The worker's two loops (deliveries, expiry scans) share one scheduler: these defend that a full claim is
// followed at once by another look, that a send's end starts the next look without waiting for the poll
// interval (a slow receiver does not hold the others back), that shutdown waits for the runs under way and
// the sends in flight, and that nothing runs after.
describe('WebhookWorker', () => {
  it(
    'looks again at once after a full claim, and shutdown waits for the ' + 'runs under way and the sends in flight, and starts no other',
    async () => {
      const fake = fakeDeliver();
      const scan = deferred<number>();
      let scans = 0;
      const webhooks = { deliver: fake.deliver, reportExpired: { execute: () => (scans++, scan.promise) } };
      const worker = new WebhookWorker({ webhooks } as never, { webhooks: settings } as never);
      worker.onModuleInit();
      await until(() => fake.runs.length === 1 && scans === 1);
      fake.runs[0].resolve({ expanded: 0, claimed: 2, room: 2 }); // full: the next look starts at once
      await until(() => fake.runs.length === 2);

      let stopped = false;
      const stopping = worker.beforeApplicationShutdown().then(() => (stopped = true));
      await new Promise((r) => setImmediate(r));
      expect(stopped).toBe(false); // the second run and the scan are still under way
      fake.runs[1].resolve({ expanded: 0, claimed: 2, room: 2 });
      scan.resolve(0);
      await new Promise((r) => setImmediate(r));
      expect(stopped).toBe(false); // the runs' sends are not answered yet
      fake.sent[0].resolve();
      fake.sent[1].resolve();
      await stopping;
      fake.endSend();
      await new Promise((r) => setImmediate(r));
      expect([fake.runs.length, scans]).toEqual([2, 1]);
    },
  );

  it('after a claim that was not full, looks again when one of its sends ends, before the poll interval', async () => {
    const fake = fakeDeliver();
    const webhooks = { deliver: fake.deliver, reportExpired: { execute: async () => 0 } };
    const worker = new WebhookWorker({ webhooks } as never, { webhooks: settings } as never);
    worker.onModuleInit();
    await until(() => fake.runs.length === 1);
    fake.runs[0].resolve({ expanded: 0, claimed: 1, room: 2 });
    await new Promise((r) => setImmediate(r));
    expect(fake.runs).toHaveLength(1); // the poll interval is a minute away
    fake.endSend();
    await until(() => fake.runs.length === 2);
    fake.runs[1].resolve({ expanded: 0, claimed: 0, room: 2 });
    for (const s of fake.sent) s.resolve();
    await worker.beforeApplicationShutdown();
    expect(fake.runs).toHaveLength(2);
  });

  it('does nothing when WEBHOOKS_WORKER is off', async () => {
    let calls = 0;
    const webhooks = {
      deliver: {
        execute: async () => (
          calls++,
          { expanded: 0, claimed: 0, room: 2, sendEnded: new Promise<void>(() => undefined), sent: Promise.resolve() }
        ),
        purge: async () => undefined,
      },
      reportExpired: { execute: async () => (calls++, 0) },
    };
    const worker = new WebhookWorker({ webhooks } as never, { webhooks: { ...settings, worker: false } } as never);
    worker.onModuleInit();
    await new Promise((r) => setTimeout(r, 5));
    await worker.beforeApplicationShutdown();
    expect(calls).toBe(0);
  });

  // A container's healthcheck reads the file's age: it must not be written while the database cannot be reached.
  it('writes its heartbeat file after a look that reached the database, and not after one that failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lnk-heartbeat-'));
    const file = join(dir, 'alive');
    try {
      let fail = true;
      let runs = 0;
      const webhooks = {
        deliver: {
          execute: async () => {
            runs++;
            if (fail) throw new Error('connect ECONNREFUSED');
            return { expanded: 0, claimed: 0, room: 2, sendEnded: new Promise<void>(() => undefined), sent: Promise.resolve() };
          },
          purge: async () => undefined,
        },
        reportExpired: { execute: async () => 0 },
      };
      const worker = new WebhookWorker(
        { webhooks } as never,
        { webhooks: { ...settings, pollIntervalMs: 1, heartbeatFile: file } } as never,
      );
      worker.onModuleInit();
      const until = async (check: () => boolean) => {
        while (!check()) await new Promise((r) => setTimeout(r, 1));
      };
      await until(() => runs >= 3);
      expect(existsSync(file)).toBe(false);
      fail = false;
      await until(() => existsSync(file));
      await worker.beforeApplicationShutdown();
      expect(new Date(readFileSync(file, 'utf8').trim()).getTime()).toBeGreaterThan(Date.now() - 60_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
