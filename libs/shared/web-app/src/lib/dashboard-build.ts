import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file of the build, held in memory with its gzip form (the build is a few hundred kilobytes). */
export interface DashboardFile {
  body: Buffer;
  /** Null when compressing does not make it smaller (images). */
  gzip: Buffer | null;
  type: string;
  etag: string;
  /** A file whose name carries its content hash (Vite's assets/): cached for good. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** More files than any build of the dashboard has: a wrong DASHBOARD_DIR (a home folder) is refused rather than read. */
const MAX_FILES = 2000;
const MAX_BYTES = 50 * 1024 * 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

function fileOf(path: string, immutable: boolean): DashboardFile {
  const body = readFileSync(path);
  const type = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  const compressible = /^(text\/|application\/(json|manifest)|image\/svg)/.test(type);
  const gzip = compressible ? gzipSync(body, { level: 9 }) : null;
  return {
    body,
    gzip: gzip && gzip.length < body.length ? gzip : null,
    type,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    immutable,
  };
}

/**
 * The dashboard as Vite built it (DASHBOARD_DIR), read once at start-up: only these files are ever served,
 * by their path under the build, so no request can name a file elsewhere on disk.
 */
export class DashboardBuild {
  private constructor(
    private readonly files: ReadonlyMap<string, DashboardFile>,
    readonly index: DashboardFile,
  ) {}

  /** The build in `dir`, or null when there is none (no index.html: the dashboard was not built). */
  static load(dir: string): DashboardBuild | null {
    if (!existsSync(join(dir, 'index.html'))) return null;
    const paths = filesUnder(dir);
    if (paths.length > MAX_FILES)
      throw new Error(`${dir} holds ${paths.length} files, more than a dashboard build: is DASHBOARD_DIR right?`);
    const bytes = paths.reduce((sum, path) => sum + statSync(path).size, 0);
    if (bytes > MAX_BYTES) throw new Error(`${dir} holds ${bytes} bytes, more than a dashboard build: is DASHBOARD_DIR right?`);
    const files = new Map<string, DashboardFile>();
    for (const path of paths) {
      const name = relative(dir, path).split(sep).join('/');
      files.set(name, fileOf(path, name.startsWith('assets/')));
    }
    const index = files.get('index.html');
    if (!index) throw new Error(`${dir}/index.html could not be read`);
    files.delete('index.html');
    return new DashboardBuild(files, index);
  }

  /** A file by its path under the build (`assets/index-3f2a.js`); index.html is `index`. */
  file(path: string): DashboardFile | undefined {
    return this.files.get(path);
  }
}
