import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The service's version: `version` of the repository's package.json, found by walking up from this file
 * (the source tree, dist/, or a copy of dist/ inside the repository all sit below it).
 */
function readManifest(): { version: string; license: string } {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string; license?: string };
      if (manifest.name === '@lnk/source' && typeof manifest.version === 'string')
        return { version: manifest.version, license: manifest.license ?? 'unknown' };
    }
    if (dirname(dir) === dir) return { version: 'unknown', license: 'unknown' };
  }
}

const MANIFEST = readManifest();

export const SERVICE_VERSION = MANIFEST.version;

/** The licence package.json states (an SPDX expression, or UNLICENSED), for the OpenAPI document's info. */
export const SERVICE_LICENSE = MANIFEST.license;
