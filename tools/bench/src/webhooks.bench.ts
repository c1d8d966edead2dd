import { ChildProcess, spawn } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  BenchApp,
  cpuMsOf,
  databaseSessionsCpuMs,
  envNumber,
  loadSettings,
  LoadSettings,
  ratio,
  runMain,
  sleep,
  startServer,
  stopChild,
  trackChild,
  withBenchApp,
  writeResult,
} from './bench-support';
import { LoadResultHeading, loadResultHeading, loadGenerator, median } from './load-generator';

/**
 * `npm run bench:webhooks`: what webhooks cost and give, on the built combined API process (`npm start`'s
 * process, on PostgreSQL), with a node:http receiver on loopback that answers 204 at once:
 *   (a) deliveries per second one instance sends: BENCH_WEBHOOK_EVENTS (5,000) deliveries enqueued in one
 *       SQL statement, timed from then until the database shows every one delivered (the worker's batch
 *       and poll interval as configured: WEBHOOKS_BATCH_SIZE, default 20; BENCH_WEBHOOK_BATCH overrides);
 *   (b) the redirect figure (wrk on one hot link) with a `link.clicked` webhook active for the link's owner
 *       against the same without one (the webhook turned off), as a ratio, and a bare node:http server
 *       answering the same 302 in the same rounds, so that the figures of a shared machine compare.
 *
 * Settings: BENCH_DURATION seconds per measured run (8), BENCH_ROUNDS (3), BENCH_WARMUP (2), BENCH_CONNECTIONS
 * (64), BENCH_THREADS (2), BENCH_WEBHOOK_EVENTS (5000), BENCH_WEBHOOK_BATCH (the worker's batch size, 20),
 * BENCH_WEBHOOK_WORKER: where the delivery worker runs: unset or 1, in the app's process (npm start's way);
 * 0, nowhere (the app only enqueues, WEBHOOKS_WORKER=false, as an instance answering short URLs beside
 * separate workers would: (a) is skipped, (b) measures the enqueue alone); `separate`, in a process of its
 * own (`node dist/apps/api/src/worker.js`, at WEBHOOKS_WORKER_NICE, 19 unless set) beside the app with
 * WEBHOOKS_WORKER=false: (a) is that worker's figure, (b) the redirects while it sends what they enqueue.
 * With a worker, after (b) the webhook is turned on again and the time its backlog takes to be delivered is
 * measured (the catch-up, at most BENCH_WEBHOOK_CATCHUP seconds, 300). BENCH_PROFILE=<dir>: the app (and
 * a separate worker) under `node --cpu-prof`, their .cpuprofile written there when they stop.
 * BENCH_DATABASE_URL: the PostgreSQL server for the throw-away database.
 *
 * CPU per redirect (app process, PostgreSQL sessions of the bench database, the separate worker) is
 * measured in each phase from /proc: on a shared machine it holds where req/s moves with other work.
 */

const LANDING = 'https://example.com/landing';
const BARE_SERVER = `
const { createServer } = require('node:http');
createServer((req, res) => {
  res.writeHead(302, { location: ${JSON.stringify(LANDING)}, 'cache-control': 'private, max-age=0', 'content-length': '0' });
  res.end();
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

export type WorkerMode = 'inside' | 'none' | 'separate';

/** CPU microseconds per redirect answered in a phase: the app's process, PostgreSQL's sessions, a separate worker's process. */
export interface CpuPerRedirect {
  app: number | null;
  /**
   * Of `app`, its main thread's (JavaScript, the event loop, garbage collection pauses); the rest is V8's helper threads (concurrent and
   * parallel GC) and libuv's.
   */
  appMain: number | null;
  database: number | null;
  worker: number | null;
}

export interface WebhooksResult extends LoadResultHeading<'webhooks'> {
  settings: LoadSettings & { events: number; batchSize: number; worker: WorkerMode; workerNice: number | null };
  deliveries: { events: number; seconds: number; perSecond: number; received: number };
  redirect: {
    bare: number;
    withoutWebhook: number;
    withWebhook: number;
    /** with / without (medians): the bar of issue 19 is ≥ 0.9. */
    ratio: number;
    bareRatioWithout: number;
    bareRatioWith: number;
    rounds: { bare: number; without: number; with: number }[];
    /**
     * link.clicked events the webhook got enqueued while it was on (deliveries made and events waiting in its batches), and the redirects
     * answered then (equal, up to requests in flight).
     */
    clickDeliveries: number;
    clicksWhileOn: number;
    /** Visits the statistics counted over the same time: tells a lost event from a lost click. */
    visitsWhileOn: number;
    /**
     * CPU per redirect answered, medians of the rounds (the click write and the enqueue included: each phase lasts until its clicks are
     * written).
     */
    cpuWithout: CpuPerRedirect;
    cpuWith: CpuPerRedirect;
  };
  /** With a worker: the link.clicked deliveries sent during the load, and the time the rest took once the load stopped. */
  catchUp: {
    enqueued: number;
    deliveredDuringLoad: number;
    seconds: number;
    delivered: number;
    left: number;
    perSecond: number;
    /**
     * CPU µs per delivery made during the catch-up: the app's process (its worker, when inside), PostgreSQL's sessions, a separate
     * worker's.
     */
    cpuPerDelivery: CpuPerRedirect;
    /** The machine's 1-minute load average when the catch-up began: other work there takes CPU from an idle-priority worker. */
    loadAverage: number;
  } | null;
  /** BENCH_PROFILE: where the profiles went, and when each measured phase ran (monotonic µs, as their timestamps). */
  profile?: { dir: string; phases: { phase: 'with' | 'without'; from: number; to: number }[] };
}

function workerModeOf(value: string | undefined): WorkerMode {
  if (value === undefined || value === '' || value === '1') return 'inside';
  if (value === '0') return 'none';
  if (value === 'separate') return 'separate';
  throw new Error(`BENCH_WEBHOOK_WORKER: 1 (in the app), 0 (none) or separate, not ${value}`);
}

/** The built delivery worker in a process of its own on the bench's database; resolves once it has said it started. */
async function startSeparateWorker(env: NodeJS.ProcessEnv, nodeArgs: string[]): Promise<ChildProcess> {
  const entry = join(__dirname, '..', '..', '..', 'apps', 'api', 'src', 'worker.js');
  const child = spawn(process.execPath, [...nodeArgs, entry], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  trackChild(child);
  let said = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      if (said.includes('webhook delivery worker started')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the webhook worker exited (${code}) before it started:\n${said}`)));
  });
  // Read on, or a full pipe would stall it.
  child.stdout?.resume();
  return child;
}

/** CPU counters of the processes a phase is charged with, read before and after it. */
async function cpuCounters(app: BenchApp, worker: ChildProcess | null): Promise<CpuPerRedirect> {
  const pid = app.process.pid;
  return {
    app: cpuMsOf(pid),
    appMain: pid ? mainThreadCpuMs(pid) : null,
    database: await databaseSessionsCpuMs(app.db),
    worker: worker ? cpuMsOf(worker.pid) : null,
  };
}

/** CPU time (ms) of a process's main thread (its task of the same id), from /proc; null elsewhere. */
function mainThreadCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ').pop()?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

function cpuPerRedirect(before: CpuPerRedirect, after: CpuPerRedirect, redirects: number): CpuPerRedirect {
  const per = (a: number | null, b: number | null) =>
    a === null || b === null || redirects === 0 ? null : +(((b - a) * 1000) / redirects).toFixed(1);
  return {
    app: per(before.app, after.app),
    appMain: per(before.appMain, after.appMain),
    database: per(before.database, after.database),
    worker: per(before.worker, after.worker),
  };
}

/** A loopback receiver answering 204 to everything; counts what it got. */
async function receiver(): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  let received = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.statusCode = 204;
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function api<T = unknown>(app: BenchApp, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${app.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

const count = async (app: BenchApp, where: string, params: unknown[] = []) =>
  Number((await app.db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE ${where}`, params)).rows[0].n);

/**
 * The link.clicked events enqueued for a webhook: its deliveries and the events still waiting in its
 * batches (the click write stores one batch per webhook; the worker makes deliveries of them as it sends).
 */
const enqueuedOf = async (app: BenchApp, webhookId: string) =>
  (await count(app, 'webhook_id = $1', [webhookId])) +
  Number(
    (await app.db.query('SELECT COALESCE(sum(events), 0) AS n FROM webhook_event_batches WHERE webhook_id = $1', [webhookId])).rows[0].n,
  );

const visitsOf = async (app: BenchApp) =>
  Number((await app.db.query('SELECT COALESCE(sum(visits), 0) AS n FROM link_daily_stats')).rows[0].n);

/** Waits until `read` answers the same twice 2 s apart (at most a minute); answers the last value. */
async function settled(read: () => Promise<number>): Promise<number> {
  let last = await read();
  for (let waited = 0; waited < 60_000; waited += 2000) {
    await sleep(2000);
    const now = await read();
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** (a): N deliveries for one webhook straight into the outbox, then the time until all are delivered. */
async function deliveriesPerSecond(
  app: BenchApp,
  webhookId: string,
  events: number,
  log: (m: string) => void,
): Promise<WebhooksResult['deliveries']> {
  const started = Date.now();
  await app.db.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, next_attempt_at, created_at)
     SELECT md5('f' || lpad(to_hex(g), 23, '0') || $1), $1, 'f' || lpad(to_hex(g), 23, '0'), 'link.updated',
       '{"type":"link.updated","data":{}}', now(), now()
       FROM generate_series(1, $2::int) AS g`,
    [webhookId, events],
  );
  for (;;) {
    const delivered = await count(app, "webhook_id = $1 AND status = 'delivered'", [webhookId]);
    if (delivered >= events) break;
    if (Date.now() - started > 600_000) throw new Error(`only ${delivered} of ${events} delivered after 10 minutes`);
    await sleep(50);
  }
  const seconds = (Date.now() - started) / 1000;
  log(`  ${events} deliveries in ${seconds.toFixed(2)} s`);
  return { events, seconds: +seconds.toFixed(2), perSecond: Math.round(events / seconds), received: 0 };
}

export async function runWebhooksBench(): Promise<WebhooksResult> {
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const settings = loadSettings(8);
  const events = envNumber('BENCH_WEBHOOK_EVENTS', 5_000);
  const batchSize = envNumber('BENCH_WEBHOOK_BATCH', 20);
  const mode = workerModeOf(process.env['BENCH_WEBHOOK_WORKER']);
  const catchUpSeconds = envNumber('BENCH_WEBHOOK_CATCHUP', 300);
  const profileDir = process.env['BENCH_PROFILE'];
  const nodeArgs = (name: string) =>
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=webhooks-${mode}-${name}.cpuprofile`] : [];
  const scratch = join(__dirname, '..', '..', '..', '..', 'tmp', 'bench');
  mkdirSync(scratch, { recursive: true });
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const generator = loadGenerator(settings, scratch, log);
  const hook = await receiver();
  const barePort = 20_000 + Math.floor(Math.random() * 20_000);
  const bare = await startServer(['-e', BARE_SERVER], { ...process.env, PORT: String(barePort) }, barePort);
  const workerNice = mode === 'separate' ? envNumber('WEBHOOKS_WORKER_NICE', 19) : null;
  let separate: ChildProcess | null = null;
  try {
    const hasWorker = mode !== 'none';
    // One key for the app and a separate worker: the worker opens the signing secrets the app sealed.
    const env = {
      SECRET_KEY: 'cd'.repeat(32),
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_BATCH_SIZE: String(batchSize),
      WEBHOOKS_POLL_INTERVAL: '100',
      WEBHOOKS_WORKER: String(mode === 'inside'),
    };
    return await withBenchApp(
      env,
      async (app, databaseUrl) => {
        if (mode === 'separate') {
          separate = await startSeparateWorker(
            { ...process.env, ...env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', WEBHOOKS_WORKER_NICE: String(workerNice) },
            nodeArgs('worker'),
          );
          log(`bench: the delivery worker runs in a process of its own (pid ${separate.pid}, nice ${workerNice}); the app only enqueues`);
        }
        // (a) one webhook that wants none of the redirect's events: only the enqueued deliveries go to it.
        const sink = await api<{ id: string }>(app, 'POST', '/user/webhooks', { url: hook.url, events: ['link.updated'] });
        let deliveries: WebhooksResult['deliveries'] = { events: 0, seconds: 0, perSecond: 0, received: 0 };
        if (hasWorker) {
          log(`bench: (a) ${events} deliveries through the ${mode === 'separate' ? 'separate ' : ''}worker (batch ${batchSize})`);
          deliveries = await deliveriesPerSecond(app, sink.id, events, log);
          deliveries.received = hook.count();
        } else log('bench: (a) skipped: this instance only enqueues (BENCH_WEBHOOK_WORKER=0)');

        // (b) the hot link, with a link.clicked webhook on and off in alternating rounds.
        await api(app, 'POST', '/user/link', { url: LANDING, slug: 'hot' });
        const clicked = await api<{ id: string }>(app, 'POST', '/user/webhooks', { url: hook.url, events: ['link.clicked'] });
        const toggle = (isActive: boolean) => api(app, 'PUT', `/user/webhooks/${clicked.id}`, { isActive });
        const plan = { kind: 'single' as const, path: '/hot' };
        log(`bench: (b) the hot link, ${settings.rounds} rounds of ${settings.seconds} s: bare, without a link.clicked webhook, with one`);
        await toggle(false);
        await generator.run(bare.baseUrl, plan, settings.warmUpSeconds);
        await generator.run(app.baseUrl, plan, settings.warmUpSeconds);
        const rounds: WebhooksResult['redirect']['rounds'] = [];
        const cpuRounds: { without: CpuPerRedirect; with: CpuPerRedirect }[] = [];
        // With BENCH_PROFILE: when each measured phase ran, in the monotonic clock's µs a .cpuprofile's timestamps use (Linux), to split
        // its samples.
        const phases: { phase: 'with' | 'without'; from: number; to: number }[] = [];
        const now = () => Number(process.hrtime.bigint() / 1000n);
        let clicksWhileOn = 0;
        let visitsWhileOn = 0;
        const inFlight = settings.connections;
        // Every click answered counted (wrk's tally, less at most one request per connection in flight).
        const untilCounted = async (visitsBefore: number, answered: number) => {
          for (let waited = 0; (await visitsOf(app)) - visitsBefore < answered - inFlight && waited < 60_000; waited += 250)
            await sleep(250);
        };
        for (let round = 1; round <= settings.rounds; round++) {
          const b = await generator.run(bare.baseUrl, plan, settings.seconds);
          await toggle(false);
          let visitsBefore = await visitsOf(app);
          let cpuBefore = await cpuCounters(app, separate);
          let from = now();
          const without = await generator.run(app.baseUrl, plan, settings.seconds);
          await untilCounted(visitsBefore, without.requests - without.otherStatuses);
          phases.push({ phase: 'without', from, to: now() });
          const cpuWithout = cpuPerRedirect(cpuBefore, await cpuCounters(app, separate), without.requests - without.otherStatuses);
          await toggle(true);
          visitsBefore = await visitsOf(app);
          cpuBefore = await cpuCounters(app, separate);
          from = now();
          const withHook = await generator.run(app.baseUrl, plan, settings.seconds);
          const answered = withHook.requests - withHook.otherStatuses;
          clicksWhileOn += answered;
          // The round's clicks are enqueued with their writes (on the click schedule, which stretches after a
          // slow write, or as soon as CLICK_EVENTS_PER_WRITE are held): the webhook stays on until every click
          // answered is counted and the deliveries stop growing, so that none is written after it is off (a
          // webhook turned off is sent nothing more, whenever its clicks happened).
          await untilCounted(visitsBefore, answered);
          phases.push({ phase: 'with', from, to: now() });
          const cpuWith = cpuPerRedirect(cpuBefore, await cpuCounters(app, separate), answered);
          await settled(() => enqueuedOf(app, clicked.id));
          await toggle(false);
          visitsWhileOn += (await visitsOf(app)) - visitsBefore;
          rounds.push({ bare: b.requestsPerSecond, without: without.requestsPerSecond, with: withHook.requestsPerSecond });
          cpuRounds.push({ without: cpuWithout, with: cpuWith });
          const us = (c: CpuPerRedirect) =>
            `app ${c.app} µs (main thread ${c.appMain}), db ${c.database} µs${c.worker === null ? '' : `, worker ${c.worker} µs`}`;
          log(
            `  round ${round}: bare ${b.requestsPerSecond} req/s | without ${without.requestsPerSecond} ` +
              `req/s (${us(cpuWithout)}) | with ${withHook.requestsPerSecond} req/s (${us(cpuWith)})`,
          );
        }
        const clickDeliveries = await enqueuedOf(app, clicked.id);
        const m = (pick: (r: (typeof rounds)[number]) => number) => Math.round(median(rounds.map(pick)));
        const mc = (pick: (r: CpuPerRedirect) => number | null, phase: 'with' | 'without') => {
          const values = cpuRounds.map((r) => pick(r[phase])).filter((v): v is number => v !== null);
          return values.length ? +median(values).toFixed(1) : null;
        };
        const cpuOf = (phase: 'with' | 'without'): CpuPerRedirect => ({
          app: mc((c) => c.app, phase),
          appMain: mc((c) => c.appMain, phase),
          database: mc((c) => c.database, phase),
          worker: mc((c) => c.worker, phase),
        });
        const [bareRps, withoutRps, withRps] = [m((r) => r.bare), m((r) => r.without), m((r) => r.with)];

        // The catch-up: the load over, the webhook on again, until its batches and pending deliveries are gone.
        let catchUp: WebhooksResult['catchUp'] = null;
        if (hasWorker) {
          const delivered = async () => count(app, "webhook_id = $1 AND status = 'delivered'", [clicked.id]);
          const deliveredDuringLoad = await delivered();
          log(
            `bench: catch-up: ${clickDeliveries - deliveredDuringLoad} of ${clickDeliveries} ` +
              `link.clicked events left to deliver after the load (at most ${catchUpSeconds} s)`,
          );
          await toggle(true);
          const cpuBefore = await cpuCounters(app, separate);
          const loadBefore = loadavg()[0];
          const started = Date.now();
          let done = deliveredDuringLoad;
          while (Date.now() - started < catchUpSeconds * 1000) {
            done = await delivered();
            if (done >= clickDeliveries) break;
            await sleep(500);
          }
          const seconds = (Date.now() - started) / 1000;
          const cpu = cpuPerRedirect(cpuBefore, await cpuCounters(app, separate), done - deliveredDuringLoad);
          catchUp = {
            enqueued: clickDeliveries,
            deliveredDuringLoad,
            seconds: +seconds.toFixed(1),
            delivered: done,
            left: clickDeliveries - done,
            perSecond: Math.round((done - deliveredDuringLoad) / seconds),
            cpuPerDelivery: cpu,
            loadAverage: +loadBefore.toFixed(2),
          };
          log(`  ${done - deliveredDuringLoad} delivered in ${seconds.toFixed(1)} s; ${clickDeliveries - done} left`);
        }
        return {
          ...loadResultHeading('webhooks', generator),
          settings: { ...settings, events, batchSize, worker: mode, workerNice },
          deliveries,
          redirect: {
            bare: bareRps,
            withoutWebhook: withoutRps,
            withWebhook: withRps,
            ratio: ratio(withRps, withoutRps),
            bareRatioWithout: ratio(withoutRps, bareRps),
            bareRatioWith: ratio(withRps, bareRps),
            rounds,
            clickDeliveries,
            clicksWhileOn,
            visitsWhileOn,
            cpuWithout: cpuOf('without'),
            cpuWith: cpuOf('with'),
          },
          catchUp,
          ...(profileDir ? { profile: { dir: profileDir, phases } } : {}),
        };
      },
      nodeArgs('app'),
    );
  } finally {
    if (separate) await stopChild(separate);
    await bare.stop();
    await hook.close();
  }
}

export function printWebhooks(result: WebhooksResult): void {
  const { deliveries: d, redirect: r, catchUp: c } = result;
  const where = {
    inside: 'in the app process',
    none: 'nowhere (the app only enqueues)',
    separate: `in a process of its own at nice ${result.settings.workerNice}`,
  }[result.settings.worker];
  const us = (p: CpuPerRedirect) =>
    `app ${p.app} µs (main thread ${p.appMain}), PostgreSQL ${p.database} µs${p.worker === null ? '' : `, worker ${p.worker} µs`}`;
  const lines = [
    `delivery worker: ${where}`,
    `webhooks, ${result.loadGenerator} ${result.settings.threads} threads ${result.settings.connections} connections, ` +
      `${result.settings.rounds} rounds of ${result.settings.seconds} s (medians), ${result.machine.cpus} cores`,
    ...(result.warning ? [`WARNING: ${result.warning}`] : []),
    `(a) deliveries: ${d.events} in ${d.seconds} s = ${d.perSecond}/s from one instance ` +
      `(worker batch ${result.settings.batchSize}); the receiver got ${d.received}`,
    `(b) hot link redirects: bare ${r.bare} req/s | without a link.clicked webhook ${r.withoutWebhook} ` +
      `(${r.bareRatioWithout} of bare) | with one ${r.withWebhook} (${r.bareRatioWith} of bare)`,
    `    with / without: ${r.ratio} (bar of issue 19: ≥ 0.9: ${r.ratio >= 0.9 ? 'met' : 'NOT met'}); ` +
      `${r.clickDeliveries} link.clicked events enqueued (deliveries and batched) for ` +
      `${r.clicksWhileOn} redirects answered (${r.visitsWhileOn} visits counted) while it was on`,
    `    CPU per redirect: without ${us(r.cpuWithout)} | with ${us(r.cpuWith)}`,
    ...(c
      ? [
          `catch-up: ${c.deliveredDuringLoad} of ${c.enqueued} link.clicked events delivered during the load; the rest ` +
            `${c.left === 0 ? 'all' : `${c.delivered - c.deliveredDuringLoad} (${c.left} LEFT)`} in ${c.seconds} s after it ` +
            `(${c.perSecond}/s; per delivery ${us(c.cpuPerDelivery)}; machine load ${c.loadAverage} at its start)`,
        ]
      : []),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

runMain(module, async () => {
  const result = await runWebhooksBench();
  printWebhooks(result);
  writeResult('webhooks', result);
});
