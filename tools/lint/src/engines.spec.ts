import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm ci` warns EBADENGINE for every installed package whose `engines.node` the oldest Node the project
 * supports does not satisfy (file-type, cookie and content-disposition once wanted Node 22 while the
 * project said 20.19): the promise in `engines` was false. Every package the lock installs must accept it.
 */

type Version = [number, number, number];

function parse(text: string): { version: Version; given: number } {
  const parts = text.replace(/^v/, '').split('.');
  const given = parts.filter((p) => /^\d+$/.test(p)).length;
  const [major = 0, minor = 0, patch = 0] = parts.map((p) => (/^\d+$/.test(p) ? Number(p) : 0));
  return { version: [major, minor, patch], given };
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** One comparator of a semver range (>=, >, <, <=, =, ^, ~, x-ranges), as npm reads engines. */
function satisfiesComparator(version: Version, comparator: string): boolean {
  const match = /^(>=|<=|>|<|=|\^|~)?\s*v?([\d.xX*]+)$/.exec(comparator.trim());
  if (!match) throw new Error(`an engines range this test cannot read: "${comparator}"`);
  const [, op = '', bound] = match;
  if (bound === '*' || /^[xX]$/.test(bound)) return true;
  const { version: low, given } = parse(bound.replace(/\.[xX*].*$/, ''));
  const upper = (index: number): Version =>
    index === 0 ? [low[0] + 1, 0, 0] : index === 1 ? [low[0], low[1] + 1, 0] : [low[0], low[1], low[2] + 1];
  const cmp = compare(version, low);
  switch (op) {
    case '>=':
      return cmp >= 0;
    case '>':
      return given < 3 ? compare(version, upper(given - 1)) >= 0 : cmp > 0;
    case '<':
      return cmp < 0;
    case '<=':
      return given < 3 ? compare(version, upper(given - 1)) < 0 : cmp <= 0;
    case '^':
      return cmp >= 0 && compare(version, low[0] > 0 || given === 1 ? upper(0) : low[1] > 0 || given === 2 ? upper(1) : upper(2)) < 0;
    case '~':
      return cmp >= 0 && compare(version, given === 1 ? upper(0) : upper(1)) < 0;
    default:
      return cmp >= 0 && compare(version, upper(given - 1)) < 0;
  }
}

export function satisfies(version: string, range: string): boolean {
  const v = parse(version).version;
  return range.split('||').some((set) => {
    const hyphen = /^\s*(\S+)\s+-\s+(\S+)\s*$/.exec(set);
    const comparators = hyphen
      ? [`>=${hyphen[1]}`, `<=${hyphen[2]}`]
      : set
          .trim()
          .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
          .split(/\s+/)
          .filter(Boolean);
    return comparators.length === 0 || comparators.every((c) => satisfiesComparator(v, c));
  });
}

describe('engines', () => {
  const root = join(__dirname, '..', '..', '..');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
  };
  const oldest = /^>=\s*(\d+\.\d+\.\d+)$/.exec(pkg.engines.node)?.[1];

  it('reads semver ranges as npm does', () => {
    expect([
      satisfies('20.19.0', '>=20'),
      satisfies('20.19.0', '>=22'),
      satisfies('20.19.0', '^18.18.0 || ^20.9.0 || >=21.1.0'),
      satisfies('20.19.0', '>= 14.17'),
    ]).toEqual([true, false, true, true]);
    expect([
      satisfies('20.19.0', '^20.19.0 || >=22.12.0'),
      satisfies('20.18.9', '^20.19.0 || >=22.12.0'),
      satisfies('20.19.0', '20 || 22'),
      satisfies('20.19.0', '>=14 <20'),
    ]).toEqual([true, false, true, false]);
  });

  it('names the oldest supported Node as ">=x.y.z"', () => {
    expect(oldest).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('installs no package that needs a newer Node than the oldest the project supports (npm ci would warn EBADENGINE)', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !satisfies(oldest as string, (entry.engines as { node: string }).node))
      .map(([path, entry]) => `${path}@${entry.version}: node ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
