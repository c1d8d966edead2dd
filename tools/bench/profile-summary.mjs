#!/usr/bin/env node
// Sums a V8 .cpuprofile (node --cpu-prof) by function and by package: self time (the function's own code)
// and inclusive time (it and everything it called; a function that recurs counts once per sample).
//
//   node tools/bench/profile-summary.mjs <file.cpuprofile> [--skip-ms=N] [--top=N] [--match=text] [--exclude=writev,...]
//
// --skip-ms leaves out the first N ms (the start-up); (idle) is left out of the shares, and so is (program)
// and (garbage collector) from the packages' inclusive sums (they have no caller). --match=text lists the
// callers and callees of the functions whose name or file contains text. --exclude leaves out the samples
// whose innermost frame has one of these names: `writev` (the socket write) is inflated by wall-time
// sampling, the process being often descheduled right there as it wakes the load generator.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const option = (name, fallback) => {
  const found = args.find((a) => a.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
};
if (!file) {
  process.stderr.write('usage: profile-summary.mjs <file.cpuprofile> [--skip-ms=N] [--top=N] [--match=text] [--exclude=writev]\n');
  process.exit(2);
}
const skipMs = Number(option('skip-ms', '0'));
const top = Number(option('top', '40'));
const match = option('match', '');
const excluded = new Set(option('exclude', '').split(',').filter(Boolean));

const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** node_modules/<pkg> (scoped too), dist/<apps|libs>/<name>, node:<internal module>, or V8's own frames. */
function packageOf(url, name) {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = url.match(/dist\/(apps|libs|tools)\/([^/]+)(?:\/([^/]+))?/);
  if (dist) return dist[1] === 'libs' ? `libs/${dist[2]}/${dist[3]}` : `${dist[1]}/${dist[2]}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`;
  return url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/');
}
const frameOf = (n) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const name = functionName || '(anonymous)';
  const short = url
    ? url
        .replace(/^.*node_modules\//, '')
        .replace(/^.*dist\//, '')
        .replace(/^file:\/\//, '')
    : '';
  return short ? `${name} ${short}:${lineNumber + 1}` : name;
};

const self = new Map();
const inclusive = new Map();
const pkgSelf = new Map();
const pkgInclusive = new Map();
const callers = new Map();
const callees = new Map();
const add = (map, key, value) => map.set(key, (map.get(key) ?? 0) + value);

let t = profile.startTime;
let total = 0;
let idle = 0;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i] ?? 0;
  const dt = profile.timeDeltas[i + 1] ?? 0; // the time until the next sample is this sample's
  if ((t - profile.startTime) / 1000 < skipMs) continue;
  const leaf = byId.get(profile.samples[i]);
  if (leaf.callFrame.functionName === '(idle)') {
    idle += dt;
    continue;
  }
  if (excluded.has(leaf.callFrame.functionName)) continue;
  total += dt;
  add(self, frameOf(leaf), dt);
  add(pkgSelf, packageOf(leaf.callFrame.url, leaf.callFrame.functionName), dt);
  const seenFrames = new Set();
  const seenPackages = new Set();
  for (let id = leaf.id, child = null; id !== undefined; child = id, id = parent.get(id)) {
    const n = byId.get(id);
    if (n.callFrame.functionName === '(root)') break;
    const frame = frameOf(n);
    if (!seenFrames.has(frame)) {
      seenFrames.add(frame);
      add(inclusive, frame, dt);
    }
    const pkg = packageOf(n.callFrame.url, n.callFrame.functionName);
    if (!seenPackages.has(pkg)) {
      seenPackages.add(pkg);
      add(pkgInclusive, pkg, dt);
    }
    if (match && frame.includes(match)) {
      const up = parent.get(id);
      if (up !== undefined) add(callers.get(frame) ?? callers.set(frame, new Map()).get(frame), frameOf(byId.get(up)), dt);
      if (child !== null) add(callees.get(frame) ?? callees.set(frame, new Map()).get(frame), frameOf(byId.get(child)), dt);
    }
  }
}

const ms = (us) => (us / 1000).toFixed(1).padStart(9);
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const table = (title, map, n = top) => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, value] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n))
    process.stdout.write(`${ms(value)} ms ${pct(value)}  ${key}\n`);
};

process.stdout.write(`${file}: ${(total / 1000).toFixed(0)} ms busy, ${(idle / 1000).toFixed(0)} ms idle (after the first ${skipMs} ms)\n`);
table('self time by package', pkgSelf, 30);
table('inclusive time by package', pkgInclusive, 30);
table('self time by function', self);
table('inclusive time by function', inclusive);
for (const [frame, map] of callers) table(`callers of ${frame}`, map, 10);
for (const [frame, map] of callees) table(`callees of ${frame}`, map, 15);
