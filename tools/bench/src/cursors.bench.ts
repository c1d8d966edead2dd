import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { benchPlans, BROWSER, loadSettings, type LoadSettings, ratio, runMain, withBenchApp, writeResult, envNumber } from './bench-support';
import { loadGenerator, type LoadResultHeading, loadResultHeading, type LoadRun, median, type PathPlan } from './load-generator';

/**
 * `npm run bench:cursors`: what a page of GET /user/link costs by cursor at the far end of a large list
 * against the near end (issue 30: the last page by cursor within 1.5x of the first). The built app
 * (production mode, PostgreSQL) with one account of BENCH_CURSOR_LINKS links (100,000), bulk-loaded in SQL
 * then ANALYZEd (autovacuum may be off); wrk in alternating rounds on two tables of paths:
 * - first: cursors within the newest 1,000 links (the first pages a walk reads);
 * - last: cursors within the oldest 1,000 links (the last pages, the end of the list among them).
 * Each path is a (cursor, limit) pair, limit 10 to 30, about 21,000 of them a table, so the list cache
 * (which keeps answers by owner and query) misses nearly every request: the database answers each page.
 * Reported: requests/s, p50 and p99 of each (medians over the rounds), and last over first.
 *
 * Settings: BENCH_DURATION seconds per run (5), BENCH_ROUNDS (3), BENCH_WARMUP (2), BENCH_CONNECTIONS (64),
 * BENCH_THREADS (2), BENCH_CURSOR_LINKS (100000), BENCH_DATABASE_URL.
 */

const root = join(__dirname, '..', '..', '..', '..');
const POSITIONS = 1000;

interface Side {
  request: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  rounds: LoadRun[];
}

export interface CursorsResult extends LoadResultHeading<'cursors'> {
  settings: LoadSettings & { seconds: number; rounds: number; warmUpSeconds: number };
  links: number;
  first: Side;
  last: Side;
  /** last over first: p50, p99 (higher is worse) and requests/s (first over last, so higher is worse too). */
  lastOverFirst: { p50: number; p99: number; throughput: number };
  otherAnswers: number;
}

/** The cursor after the link at `position` (0: the newest), from the offset page that ends there. */
async function cursorAt(baseUrl: string, token: string, position: number): Promise<string> {
  const res = await fetch(`${baseUrl}/user/link?start=${position}&limit=1`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { meta?: { nextCursor?: string | null } };
  const cursor = body.meta?.nextCursor;
  if (!res.ok || typeof cursor !== 'string') throw new Error(`no cursor at ${position}: ${res.status}`);
  return cursor;
}

/** Every (cursor, limit) of the positions, shuffled with a fixed seed: neighbours in the table are far apart. */
function pathsOf(cursors: string[]): string[] {
  const paths: string[] = [];
  for (const cursor of cursors) for (let limit = 10; limit <= 30; limit++) paths.push(`/user/link?limit=${limit}&cursor=${encodeURIComponent(cursor)}`);
  let seed = 30;
  for (let i = paths.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = seed % (i + 1);
    [paths[i], paths[j]] = [paths[j], paths[i]];
  }
  return paths;
}

export async function runCursorsBench(): Promise<CursorsResult> {
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const settings = loadSettings(5);
  const count = envNumber('BENCH_CURSOR_LINKS', 100_000);
  const scratch = join(root, 'tmp', 'bench');
  mkdirSync(scratch, { recursive: true });
  const generator = loadGenerator({ threads: settings.threads, connections: settings.connections, userAgent: BROWSER }, scratch, log);
  const production = { NODE_ENV: 'production', SECRET_KEY: 'cd'.repeat(32), METRICS_PUBLIC: 'true', PLANS: benchPlans(count + 10) };
  return withBenchApp(production, async (app) => {
    log(`bench: bulk-loading ${count} links`);
    await app.db.query(
      `INSERT INTO links (id, owner_id, slug, url, title, created_at, updated_at)
       SELECT lpad(to_hex(1700000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), $1, 'c' || g, 'https://example.com/articles/' || g, 'Article ' || g, now(), now()
         FROM generate_series(1, $2::int) AS g`,
      [app.userId, count],
    );
    // Autovacuum may be off (as on the machine that measured it first): the planner's statistics by hand.
    await app.db.query('ANALYZE links');
    await app.db.query('ANALYZE links_usage');

    log(`bench: ${2 * POSITIONS} cursors`);
    const near: string[] = [];
    const far: string[] = [];
    for (let i = 0; i < POSITIONS; i++) near.push(await cursorAt(app.baseUrl, app.token, i));
    // The last positions that still have a page after them: the end of the list is in every last page's reach.
    for (let i = 0; i < POSITIONS; i++) far.push(await cursorAt(app.baseUrl, app.token, count - POSITIONS - 1 + i));
    const plans: Record<'first' | 'last', PathPlan> = { first: { kind: 'table', paths: pathsOf(near) }, last: { kind: 'table', paths: pathsOf(far) } };
    const order = ['first', 'last'] as const;

    log(`bench: warm-up ${settings.warmUpSeconds} s each`);
    const all: LoadRun[] = [];
    for (const side of order) all.push(await generator.run(app.baseUrl, plans[side], settings.warmUpSeconds, { method: 'GET', headers: { authorization: `Bearer ${app.token}` } }));
    const rounds: Record<'first' | 'last', LoadRun[]> = { first: [], last: [] };
    for (let round = 1; round <= settings.rounds; round++) {
      for (const side of order) {
        const run = await generator.run(app.baseUrl, plans[side], settings.seconds, { method: 'GET', headers: { authorization: `Bearer ${app.token}` } });
        rounds[side].push(run);
        all.push(run);
      }
      log(`  round ${round}: first ${rounds.first[round - 1].requestsPerSecond}/s p50 ${rounds.first[round - 1].p50Ms} ms | last ${rounds.last[round - 1].requestsPerSecond}/s p50 ${rounds.last[round - 1].p50Ms} ms`);
    }
    const sideOf = (side: 'first' | 'last', request: string): Side => ({
      request,
      requestsPerSecond: Math.round(median(rounds[side].map((r) => r.requestsPerSecond))),
      p50Ms: +median(rounds[side].map((r) => r.p50Ms)).toFixed(2),
      p99Ms: +median(rounds[side].map((r) => r.p99Ms)).toFixed(2),
      rounds: rounds[side],
    });
    const first = sideOf('first', `GET /user/link?cursor= (newest ${POSITIONS} positions, limit 10-30)`);
    const last = sideOf('last', `GET /user/link?cursor= (oldest ${POSITIONS} positions, limit 10-30)`);
    return {
      ...loadResultHeading('cursors', generator),
      settings,
      links: count,
      first,
      last,
      lastOverFirst: { p50: ratio(last.p50Ms, first.p50Ms), p99: ratio(last.p99Ms, first.p99Ms), throughput: ratio(first.requestsPerSecond, last.requestsPerSecond) },
      otherAnswers: all.reduce((sum, run) => sum + run.otherStatuses + run.errors, 0),
    };
  });
}

export function printCursors(result: CursorsResult): void {
  const pad = (value: unknown, width: number) => String(value).padStart(width);
  const lines = [
    `cursors, ${result.loadGenerator} ${result.settings.threads} threads ${result.settings.connections} connections, ${result.settings.rounds} alternating rounds of ${result.settings.seconds} s (medians), ${result.machine.cpus} cores, ${result.links} links in the account`,
    ...(result.warning ? [`WARNING: ${result.warning}`] : []),
    `${'request'.padEnd(64)}${pad('req/s', 8)}${pad('p50', 8)}${pad('p99', 8)}`,
  ];
  for (const side of [result.first, result.last]) lines.push(`${side.request.padEnd(64)}${pad(side.requestsPerSecond, 8)}${pad(side.p50Ms, 8)}${pad(side.p99Ms, 8)}`);
  lines.push(`last over first: p50 ${result.lastOverFirst.p50}x, p99 ${result.lastOverFirst.p99}x, requests/s ${result.lastOverFirst.throughput}x (target: within 1.5x)`);
  if (result.otherAnswers) lines.push(`WARNING: ${result.otherAnswers} answers not 2xx/3xx or socket errors`);
  process.stdout.write(lines.join('\n') + '\n');
}

runMain(module, async () => {
  const result = await runCursorsBench();
  printCursors(result);
  process.stdout.write(`summary written to ${writeResult('cursors', result)}\n`);
});
