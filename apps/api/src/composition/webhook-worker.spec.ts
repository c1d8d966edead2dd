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

// The worker's two loops (deliveries, expiry scans) share one scheduler: these defend that a full batch is
// followed at once by another run, that shutdown waits for the runs under way, and that nothing runs after.
describe('WebhookWorker', () => {
  it('runs again at once after a full batch, and shutdown waits for the runs under way and starts no other', async () => {
    const runs: ReturnType<typeof deferred<{ expanded: number; claimed: number; failed: number }>>[] = [];
    const scan = deferred<number>();
    let scans = 0;
    const webhooks = {
      deliver: {
        execute: () => {
          runs.push(deferred());
          return runs[runs.length - 1].promise;
        },
        purge: async () => undefined,
      },
      reportExpired: {
        execute: () => {
          scans++;
          return scan.promise;
        },
      },
    };
    const worker = new WebhookWorker({ webhooks } as never, { webhooks: settings } as never);
    worker.onModuleInit();
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise((r) => setImmediate(r));
    };
    await until(() => runs.length === 1 && scans === 1);
    runs[0].resolve({ expanded: 0, claimed: 2, failed: 0 }); // a full batch: the next run starts at once
    await until(() => runs.length === 2);

    let stopped = false;
    const stopping = worker.beforeApplicationShutdown().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false); // the second run and the scan are still under way
    runs[1].resolve({ expanded: 0, claimed: 2, failed: 0 });
    scan.resolve(0);
    await stopping;
    await new Promise((r) => setImmediate(r));
    expect([runs.length, scans]).toEqual([2, 1]);
  });

  it('does nothing when WEBHOOKS_WORKER is off', async () => {
    let calls = 0;
    const webhooks = { deliver: { execute: async () => (calls++, { expanded: 0, claimed: 0, failed: 0 }), purge: async () => undefined }, reportExpired: { execute: async () => (calls++, 0) } };
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
            return { expanded: 0, claimed: 0, failed: 0 };
          },
          purge: async () => undefined,
        },
        reportExpired: { execute: async () => 0 },
      };
      const worker = new WebhookWorker({ webhooks } as never, { webhooks: { ...settings, pollIntervalMs: 1, heartbeatFile: file } } as never);
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
