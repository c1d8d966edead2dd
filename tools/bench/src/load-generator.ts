import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';

/**
 * The load generator of the redirect benchmark: `wrk` (C, event loop, a few percent of a core) when it
 * can be found or installed, else autocannon (Node, on the same cores as the server it measures: it caps
 * what it can measure, so its figures understate the fast servers). Pure pieces (the Zipf table, the
 * parsing of wrk's answer) are exported for their unit tests.
 */

/** Which paths a run requests: one path; a table of paths taken in turn; or `/{prefix}{1..count}` uniformly at random. */
export type PathPlan =
  { kind: 'single'; path: string } | { kind: 'table'; paths: string[] } | { kind: 'uniform'; prefix: string; count: number };

/**
 * What each request carries besides its path (the API benchmark; the redirect benchmark sends plain GETs).
 * `body` may hold `{n}`, replaced in every request by a number no other request of the run has (thread and
 * sequence), so each POST makes a link of its own.
 */
export interface RequestShape {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Lua's long-bracket string of `text`, with a level of `=` that the text does not close by accident. */
const luaString = (text: string) => {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
};

export interface LoadRun {
  /** Answers counted by the load generator (every status), over `seconds`. */
  requests: number;
  /** Answers that were not 2xx or 3xx. */
  otherStatuses: number;
  /** Socket errors and timeouts. */
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** A deterministic pseudo-random generator (mulberry32), so a run's request mix is the same every time. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `samples` ranks in 1..`count` drawn independently with Zipf-like popularity: rank r with probability
 * proportional to 1/r^s (s = 1: the first link takes about 1/H(count) of the requests, ~10% of 10,000).
 * Inverse-CDF sampling with a binary search over the cumulative weights.
 */
export function zipfRanks(count: number, samples: number, options: { s?: number; random?: () => number } = {}): number[] {
  if (!(count >= 1) || !(samples >= 0)) throw new Error('zipfRanks: count must be at least 1 and samples not negative');
  const s = options.s ?? 1;
  const random = options.random ?? seededRandom(13);
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let rank = 1; rank <= count; rank++) {
    total += 1 / rank ** s;
    cumulative[rank - 1] = total;
  }
  const ranks = new Array<number>(samples);
  for (let i = 0; i < samples; i++) {
    const target = random() * total;
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (cumulative[mid] > target) high = mid;
      else low = mid + 1;
    }
    ranks[i] = low + 1;
  }
  return ranks;
}

/** wrk's `done` hook: one line, `WRK_RESULT {json}`, read by {@link parseWrkResult}. */
export const WRK_DONE =
  `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_RESULT {"requests":%d,"durationUs":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,` +
  `"timeout":%d},"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"max":%d}}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;

/**
 * The Lua script given to wrk. Each thread seeds its own random generator (LuaJIT's default seed is the
 * same in every thread, which would send both threads after the same slugs and warm the cache for the
 * second). No `response` function: wrk then parses no headers, and stays out of the way. `done` prints
 * one line, `WRK_RESULT {json}`, read by {@link parseWrkResult}.
 */
export function wrkScript(plan: PathPlan['kind'], shape?: RequestShape, nonce = ''): string {
  const pathOf = plan === 'table' ? 'paths[i]' : plan === 'uniform' ? 'prefix .. math.random(count)' : 'wrk.path';
  const format = shape ? `wrk.format(method, ${pathOf}, headersOf(), body())` : `wrk.format(nil, ${pathOf})`;
  const request =
    plan === 'table'
      ? `
local paths, n, i = {}, 0, 0
init = function(args)
  for line in io.lines(args[1]) do n = n + 1; paths[n] = line end
  math.randomseed(os.time() + 7919 * (id or 0))
  i = math.random(n)
end
request = function()
  i = i % n + 1
  return ${format}
end`
      : plan === 'uniform'
        ? `
local prefix, count = "/", 1
init = function(args)
  prefix, count = args[1], tonumber(args[2])
  math.randomseed(os.time() + 7919 * (id or 0))
end
request = function()
  return ${format}
end`
        : shape
          ? `
request = function()
  return ${format}
end`
          : '';
  return `-- generated by tools/bench/src/load-generator.ts
local threadCount = 0
setup = function(thread)
  threadCount = threadCount + 1
  thread:set("id", threadCount)
end
${shape ? requestSetup(shape, nonce) : ''}${request}
${WRK_DONE}`;
}

/** The Lua locals a {@link RequestShape} needs: its method, headers and body (split around `{n}`). */
function requestSetup(shape: RequestShape, nonce: string): string {
  const headers = Object.entries(shape.headers ?? {})
    .map(([name, value]) => `[ ${luaString(name)} ] = ${luaString(value)}`)
    .join(', ');
  const parts = shape.body === undefined ? null : shape.body.split('{n}');
  return `
local method, headers, sequence, merged = ${luaString(shape.method ?? 'GET')}, { ${headers} }, 0, false
-- wrk.format takes these headers instead of the command line's (-H User-Agent): merged in once.
local headersOf = function()
  if not merged then
    for name, value in pairs(wrk.headers) do if headers[name] == nil then headers[name] = value end end
    merged = true
  end
  return headers
end
local bodyParts = ${parts ? `{ ${parts.map(luaString).join(', ')} }` : 'nil'}
local body = function()
  if bodyParts == nil then return nil end
  if #bodyParts == 1 then return bodyParts[1] end
  sequence = sequence + 1
  return table.concat(bodyParts, ${luaString(nonce)} .. (id or 0) .. "x" .. sequence)
end
`;
}

const ms = (microseconds: number) => +(microseconds / 1000).toFixed(2);

/** The figures of one wrk run, from the `WRK_RESULT` line its script's `done` printed. */
export function parseWrkResult(stdout: string): LoadRun {
  const line = stdout.split('\n').find((l) => l.startsWith('WRK_RESULT '));
  if (!line) throw new Error(`wrk printed no result line:\n${stdout.slice(0, 2000)}`);
  const raw = JSON.parse(line.slice('WRK_RESULT '.length)) as {
    requests: number;
    durationUs: number;
    errors: Record<'connect' | 'read' | 'write' | 'status' | 'timeout', number>;
    latencyUs: Record<'p50' | 'p90' | 'p99' | 'max', number>;
  };
  const seconds = raw.durationUs / 1e6;
  const { status, ...socket } = raw.errors;
  return {
    requests: raw.requests,
    otherStatuses: status,
    errors: Object.values(socket).reduce((a, b) => a + b, 0),
    seconds: +seconds.toFixed(3),
    requestsPerSecond: seconds > 0 ? Math.round(raw.requests / seconds) : 0,
    p50Ms: ms(raw.latencyUs.p50),
    p90Ms: ms(raw.latencyUs.p90),
    p99Ms: ms(raw.latencyUs.p99),
    maxMs: ms(raw.latencyUs.max),
  };
}

/** `lnk_redirects_total{outcome="redirect"}` from the server's /metrics (open without METRICS_TOKEN outside production). */
export function redirectsInMetrics(text: string): number | null {
  const match = /^lnk_redirects_total\{[^}]*outcome="redirect"[^}]*\}\s+(\d+(?:\.\d+)?(?:e\+?\d+)?)\s*$/m.exec(text);
  return match ? Number(match[1]) : null;
}

/** `lnk_clicks_dropped_total` from a server's /metrics: clicks the buffer refused because it was full. */
export function clicksDroppedInMetrics(text: string): number | null {
  const match = /^lnk_clicks_dropped_total(?:\{[^}]*\})?\s+(\d+(?:\.\d+)?(?:e\+?\d+)?)\s*$/m.exec(text);
  return match ? Number(match[1]) : null;
}

export function median(values: number[]): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface LoadGenerator {
  name: 'wrk' | 'autocannon';
  /** Why wrk is not the generator, when it is not. */
  warning?: string;
  /** `shape`: the method, headers and body of every request (a plain GET without it). */
  run(baseUrl: string, plan: PathPlan, seconds: number, shape?: RequestShape): Promise<LoadRun>;
}

/** The machine a run measured: figures from different machines do not compare. */
export interface Machine {
  cpus: number;
  cpu: string;
  node: string;
}

export const thisMachine = (): Machine => ({ cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version });

/** How a load benchmark's result begins: which benchmark, when, on what machine, driven by which generator (and why not wrk). */
export interface LoadResultHeading<B extends string> {
  benchmark: B;
  date: string;
  machine: Machine;
  loadGenerator: LoadGenerator['name'];
  warning?: string;
}

export function loadResultHeading<B extends string>(benchmark: B, generator: LoadGenerator): LoadResultHeading<B> {
  return {
    benchmark,
    date: new Date().toISOString(),
    machine: thisMachine(),
    loadGenerator: generator.name,
    ...(generator.warning ? { warning: generator.warning } : {}),
  };
}

export interface LoadSettings {
  threads: number;
  connections: number;
  /** Sent with every request: a browser's, so the service counts the visits (bots are not counted). */
  userAgent: string;
}

const hasCommand = (command: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * wrk from PATH, else the Debian package installed (as root, or through `sudo -n`; after `apt-get update`
 * when the first try fails), as .ci/run does for Chromium. Null when neither works.
 */
export function findOrInstallWrk(log: (message: string) => void): string | null {
  if (hasCommand('wrk')) return 'wrk';
  if (!hasCommand('apt-get')) return null;
  const sudo = process.getuid?.() === 0 ? '' : hasCommand('sudo') ? 'sudo -n ' : null;
  if (sudo === null) return null;
  log('bench: wrk is missing; installing the Debian package');
  const install = `${sudo}apt-get install -y --no-install-recommends wrk`;
  try {
    execFileSync('sh', ['-c', `${install} >/dev/null 2>&1 || { ${sudo}apt-get update >/dev/null 2>&1 && ${install} >/dev/null 2>&1; }`], {
      stdio: 'ignore',
    });
  } catch {
    return null;
  }
  return hasCommand('wrk') ? 'wrk' : null;
}

/** A prefix no earlier run of this process used: the `{n}` of a body stays unique across runs. */
let runs = 0;
const nextNonce = () => `${Date.now().toString(36)}${(runs++).toString(36)}y`;

/** Runs wrk with `args` (its script must print the `WRK_RESULT` line, as {@link wrkScript}'s does) and reads its figures. */
export function runWrk(command: string, args: string[]): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited ${code}: ${err}${out}`));
      try {
        resolve(parseWrkResult(out));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function wrkGenerator(command: string, settings: LoadSettings, scratch: string): LoadGenerator {
  return {
    name: 'wrk',
    run: (baseUrl, plan, seconds, shape) =>
      new Promise<LoadRun>((resolve, reject) => {
        const script = `${scratch}/wrk-${plan.kind}.lua`;
        writeFileSync(script, wrkScript(plan.kind, shape, nextNonce()));
        const args = [
          '-t',
          String(settings.threads),
          '-c',
          String(settings.connections),
          '-d',
          `${seconds}s`,
          '--timeout',
          '5s',
          '-H',
          `User-Agent: ${settings.userAgent}`,
          '-s',
          script,
        ];
        let scriptArgs: string[] = [];
        let url = `${baseUrl}/`;
        if (plan.kind === 'single') url = `${baseUrl}${plan.path}`;
        else if (plan.kind === 'table') {
          const table = `${scratch}/wrk-paths.txt`;
          writeFileSync(table, plan.paths.join('\n') + '\n');
          scriptArgs = ['--', table];
        } else scriptArgs = ['--', plan.prefix, String(plan.count)];
        runWrk(command, [...args, url, ...scriptArgs]).then(resolve, reject);
      }),
  };
}

function autocannonGenerator(settings: LoadSettings, warning: string): LoadGenerator {
  return {
    name: 'autocannon',
    warning,
    async run(baseUrl, plan, seconds, shape) {
      const random = seededRandom(Date.now() >>> 0);
      let next = 0;
      const pathOf = (): string =>
        plan.kind === 'single'
          ? plan.path
          : plan.kind === 'table'
            ? plan.paths[next++ % plan.paths.length]
            : `${plan.prefix}${1 + Math.floor(random() * plan.count)}`;
      const nonce = nextNonce();
      let sequence = 0;
      const bodyOf = () => (shape?.body === undefined ? undefined : shape.body.split('{n}').join(`${nonce}${++sequence}`));
      const result = await autocannon({
        url: baseUrl,
        connections: settings.connections,
        duration: seconds,
        headers: { 'user-agent': settings.userAgent, ...shape?.headers },
        requests: [
          {
            method: (shape?.method ?? 'GET') as autocannon.Request['method'],
            setupRequest: (request) => ({ ...request, path: pathOf(), body: bodyOf() }),
          },
        ],
      });
      const answered = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
      return {
        requests: answered,
        otherStatuses: answered - result['2xx'] - result['3xx'],
        errors: result.errors + result.timeouts,
        seconds: result.duration,
        requestsPerSecond: Math.round(answered / result.duration),
        p50Ms: result.latency.p50,
        p90Ms: result.latency.p90,
        p99Ms: result.latency.p99,
        maxMs: result.latency.max,
      };
    },
  };
}

/** wrk when it is there or can be installed; otherwise autocannon, with a warning (printed, and kept in the result). */
export function loadGenerator(settings: LoadSettings, scratch: string, log: (message: string) => void): LoadGenerator {
  if (process.env['BENCH_LOAD_GENERATOR'] !== 'autocannon') {
    const wrk = findOrInstallWrk(log);
    if (wrk) return wrkGenerator(wrk, settings, scratch);
  }
  const warning =
    process.env['BENCH_LOAD_GENERATOR'] === 'autocannon'
      ? 'autocannon chosen by BENCH_LOAD_GENERATOR: it runs in Node on the same ' +
        'cores as the servers, and caps the fast ones (ratios read high)'
      : 'wrk could not be found or installed: autocannon instead, which runs in Node on the ' +
        'same cores as the servers and caps the fast ones (ratios read high)';
  log(`bench: WARNING: ${warning}`);
  return autocannonGenerator(settings, warning);
}
