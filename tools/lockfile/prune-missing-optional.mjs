// The package registry this project installs from does not carry every platform build of packages
// with native optional dependencies (@swc/core-darwin-*, @nx/nx-win32-*, ...). `npm install` then
// leaves those out of package-lock.json but keeps the edges to them, and `npm ci` refuses the lock as
// out of sync. This drops the edges to optional packages the lock has no entry for, so the lock is
// consistent again. Run it after `npm install` changes the lock: node tools/lockfile/prune-missing-optional.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const file = join(import.meta.dirname, '..', '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
// Node's resolution: the nearest node_modules up from the dependent package has to hold the package,
// at the exact version asked for (platform builds are pinned to their parent's version).
const present = (from, name, spec) => {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const entry = lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`];
    if (entry) return !/^\d+\.\d+\.\d+/.test(spec) || entry.version === spec;
    if (!dir) return false;
  }
};
let pruned = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (!present(path, name, spec)) {
      delete entry.optionalDependencies[name];
      pruned++;
    }
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`lockfile: dropped ${pruned} edges to optional packages the registry does not have\n`);
