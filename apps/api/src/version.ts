import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The service's version: `version` of the repository's package.json, found by walking up from this file
 * (the source tree, dist/, or a copy of dist/ inside the repository all sit below it).
 */
function readVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === '@lnk/source' && typeof manifest.version === 'string') return manifest.version;
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}

export const SERVICE_VERSION = readVersion();
