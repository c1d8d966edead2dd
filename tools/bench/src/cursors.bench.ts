import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  benchPlans,
  BROWSER,
  loadSettings,
  type LoadSettings,
  ratio,
  runMain,
  withBenchApp,
  writeResult,
  envNumber,
} from './bench-support';
import { loadGenerator, type LoadResultHeading, loadResultHeading, type LoadRun, median, type PathPlan } from './load-generator';

/**
 * `npm run bench:cursors`: what a page of GET /user/link costs by cursor at the far end of a large list
 * against the near end (issue 30: the last page by cursor within 1.5x of the first), and the same for the
 * lists of issue 31 (a tag's links, the title order). The built app (production mode, PostgreSQL) with one
 * account of BENCH_CURSOR_LINKS links (100,000), every other one carrying a tag, bulk-loaded in SQL then
 * ANALYZEd (autovacuum may be off); wrk in alternating rounds on tables of paths:
 * - first: cursors within the newest 1,000 links (the first pages a walk reads);
 * - last: cursors within the oldest 1,000 links (the last pages, the end of the list among them);
 * - tagged first, tagged last: the same ends of the tag's list (`?tag=`, 50,000 links);
 * - title last: the last 1,000 positions of `?sort=title`.
 * Each path is a (cursor, limit) pair, limit 10 to 30, about 21,000 of them a table, so the list cache
 * (which keeps answers by owner and query) misses nearly every request: the database answers each page.
 * Reported: requests/s, p50 and p99 of each (medians over the rounds), and last over first.
 *
 * Settings: BENCH_DURATION seconds per run (5), BENCH_ROUNDS (3), BENCH_WARMUP (2), BENCH_CONNECTIONS (64),
 * BENCH_THREADS (2), BENCH_CURSOR_LINKS (100000), BENCH_DATABASE_URL.
 */

const root = join(__dirname, '..', '..', '..', '..');
const POSITIONS = 1000;
/** The tag every other link carries (its id, made up: ids are 24 hex characters). */
const TAG_ID = 'ab'.repeat(12);

/** The tables of paths, each a list (its query) and where in it the cursors are. */
const SIDES = {
  first: { query: '', end: 'near' },
  last: { query: '', end: 'far' },
  taggedFirst: { query: `tag=${TAG_ID}`, end: 'near' },
  taggedLast: { query: `tag=${TAG_ID}`, end: 'far' },
  titleLast: { query: 'sort=title', end: 'far' },
} as const;
type SideName = keyof typeof SIDES;

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
  taggedFirst: Side;
  taggedLast: Side;
  titleLast: Side;
  /** last over first: p50, p99 (higher is worse) and requests/s (first over last, so higher is worse too). */
  lastOverFirst: { p50: number; p99: number; throughput: number };
  /** The tag's list: its last pages over its first, and its first over the plain list's first. */
  taggedLastOverFirst: { p50: number; p99: number; throughput: number };
  taggedFirstOverFirst: { p50: number; p99: number; throughput: number };
  /** The title order's last pages over the plain list's first. */
  titleLastOverFirst: { p50: number; p99: number; throughput: number };
  otherAnswers: number;
}

/** The cursor after the link at `position` (0: the first) of the list of `query`, from the offset page that ends there. */
async function cursorAt(baseUrl: string, token: string, position: number, query: string): Promise<string> {
  const res = await fetch(`${baseUrl}/user/link?${query ? `${query}&` : ''}start=${position}&limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { meta?: { nextCursor?: string | null } };
  const cursor = body.meta?.nextCursor;
  if (!res.ok || typeof cursor !== 'string') throw new Error(`no cursor at ${position}: ${res.status}`);
  return cursor;
}

/** Every (cursor, limit) of the positions, shuffled with a fixed seed: neighbours in the table are far apart. */
function pathsOf(cursors: string[], query: string): string[] {
  const paths: string[] = [];
  for (const cursor of cursors)
    for (let limit = 10; limit <= 30; limit++)
      paths.push(`/user/link?${query ? `${query}&` : ''}limit=${limit}&cursor=${encodeURIComponent(cursor)}`);
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
       SELECT lpad(to_hex(1700000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), $1, 'c' || g, 'https://example.com/articles/' || g,
         'Article ' || g, now(), now()
         FROM generate_series(1, $2::int) AS g`,
      [app.userId, count],
    );
    await app.db.query(`INSERT INTO tags (id, owner_id, name, created_at, updated_at) VALUES ($1, $2, 'every other', now(), now())`, [
      TAG_ID,
      app.userId,
    ]);
    await app.db.query(
      'INSERT INTO link_tags (link_id, tag_id) SELECT id, $2 FROM links ' +
        `WHERE owner_id = $1 AND right(slug, 1) IN ('0', '2', '4', '6', '8')`,
      [app.userId, TAG_ID],
    );
    const tagged = Math.floor(count / 2);
    // Autovacuum may be off (as on the machine that measured it first): the planner's statistics by hand.
    for (const table of ['links', 'links_usage', 'link_tags']) await app.db.query(`ANALYZE ${table}`);

    const order = Object.keys(SIDES) as SideName[];
    log(`bench: ${order.length * POSITIONS} cursors`);
    const plans = {} as Record<SideName, PathPlan>;
    for (const side of order) {
      const { query, end } = SIDES[side];
      // Far: the last positions that still have a page after them, the end of the list in every last page's reach.
      const from = end === 'near' ? 0 : (query.startsWith('tag=') ? tagged : count) - POSITIONS - 1;
      const cursors: string[] = [];
      for (let i = 0; i < POSITIONS; i++) cursors.push(await cursorAt(app.baseUrl, app.token, from + i, query));
      plans[side] = { kind: 'table', paths: pathsOf(cursors, query) };
    }

    log(`bench: warm-up ${settings.warmUpSeconds} s each`);
    const all: LoadRun[] = [];
    for (const side of order)
      all.push(
        await generator.run(app.baseUrl, plans[side], settings.warmUpSeconds, {
          method: 'GET',
          headers: { authorization: `Bearer ${app.token}` },
        }),
      );
    const rounds = Object.fromEntries(order.map((side) => [side, [] as LoadRun[]])) as Record<SideName, LoadRun[]>;
    for (let round = 1; round <= settings.rounds; round++) {
      for (const side of order) {
        const run = await generator.run(app.baseUrl, plans[side], settings.seconds, {
          method: 'GET',
          headers: { authorization: `Bearer ${app.token}` },
        });
        rounds[side].push(run);
        all.push(run);
      }
      log(
        `  round ${round}: ` +
          order.map((side) => `${side} ${rounds[side][round - 1].requestsPerSecond}/s p50 ${rounds[side][round - 1].p50Ms} ms`).join(' | '),
      );
    }
    const sideOf = (side: SideName, request: string): Side => ({
      request,
      requestsPerSecond: Math.round(median(rounds[side].map((r) => r.requestsPerSecond))),
      p50Ms: +median(rounds[side].map((r) => r.p50Ms)).toFixed(2),
      p99Ms: +median(rounds[side].map((r) => r.p99Ms)).toFixed(2),
      rounds: rounds[side],
    });
    const first = sideOf('first', `GET /user/link?cursor= (newest ${POSITIONS} positions, limit 10-30)`);
    const last = sideOf('last', `GET /user/link?cursor= (oldest ${POSITIONS} positions, limit 10-30)`);
    const taggedFirst = sideOf('taggedFirst', `GET /user/link?tag=&cursor= (newest ${POSITIONS} of ${tagged})`);
    const taggedLast = sideOf('taggedLast', `GET /user/link?tag=&cursor= (oldest ${POSITIONS} of ${tagged})`);
    const titleLast = sideOf('titleLast', `GET /user/link?sort=title&cursor= (last ${POSITIONS} positions)`);
    const over = (a: Side, b: Side) => ({
      p50: ratio(a.p50Ms, b.p50Ms),
      p99: ratio(a.p99Ms, b.p99Ms),
      throughput: ratio(b.requestsPerSecond, a.requestsPerSecond),
    });
    return {
      ...loadResultHeading('cursors', generator),
      settings,
      links: count,
      first,
      last,
      taggedFirst,
      taggedLast,
      titleLast,
      lastOverFirst: over(last, first),
      taggedLastOverFirst: over(taggedLast, taggedFirst),
      taggedFirstOverFirst: over(taggedFirst, first),
      titleLastOverFirst: over(titleLast, first),
      otherAnswers: all.reduce((sum, run) => sum + run.otherStatuses + run.errors, 0),
    };
  });
}

export function printCursors(result: CursorsResult): void {
  const pad = (value: unknown, width: number) => String(value).padStart(width);
  const lines = [
    `cursors, ${result.loadGenerator} ${result.settings.threads} threads ` +
      `${result.settings.connections} connections, ${result.settings.rounds} alternating rounds of ` +
      `${result.settings.seconds} s (medians), ${result.machine.cpus} cores, ${result.links} links in ` +
      'the account',
    ...(result.warning ? [`WARNING: ${result.warning}`] : []),
    `${'request'.padEnd(64)}${pad('req/s', 8)}${pad('p50', 8)}${pad('p99', 8)}`,
  ];
  for (const side of [result.first, result.last, result.taggedFirst, result.taggedLast, result.titleLast])
    lines.push(`${side.request.padEnd(64)}${pad(side.requestsPerSecond, 8)}${pad(side.p50Ms, 8)}${pad(side.p99Ms, 8)}`);
  lines.push(
    `last over first: p50 ${result.lastOverFirst.p50}x, p99 ${result.lastOverFirst.p99}x, ` +
      `requests/s ${result.lastOverFirst.throughput}x (target: within 1.5x)`,
  );
  lines.push(
    `tagged last over tagged first: p50 ${result.taggedLastOverFirst.p50}x, p99 ${result.taggedLastOverFirst.p99}x; ` +
      `tagged first over first: p50 ${result.taggedFirstOverFirst.p50}x, p99 ${result.taggedFirstOverFirst.p99}x`,
  );
  lines.push(
    `title last over first: p50 ${result.titleLastOverFirst.p50}x, p99 ` +
      `${result.titleLastOverFirst.p99}x, requests/s ` +
      `${result.titleLastOverFirst.throughput}x`,
  );
  if (result.otherAnswers) lines.push(`WARNING: ${result.otherAnswers} answers not 2xx/3xx or socket errors`);
  process.stdout.write(lines.join('\n') + '\n');
}

runMain(module, async () => {
  const result = await runCursorsBench();
  printCursors(result);
  process.stdout.write(`summary written to ${writeResult('cursors', result)}\n`);
});
