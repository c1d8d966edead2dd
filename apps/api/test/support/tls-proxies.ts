import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { freePort } from './test-app';

/** The documented recipes: the tests run these very files. */
export const RECIPES = join(__dirname, '..', '..', '..', '..', 'docs', 'proxy');

/** Debian's caddy and nginx (`.ci/run` installs them); CADDY_PATH and NGINX_PATH name others. */
export const CADDY = process.env['CADDY_PATH'] ?? 'caddy';
export const NGINX = process.env['NGINX_PATH'] ?? 'nginx';

const runs = (file: string, args: string[]) => spawnSync(file, args, { stdio: 'ignore' }).status === 0;

/**
 * `describe` when the programs run here, else a skipped block that says why. Keys are the Debian packages,
 * values the command that must run (`.ci/run` installs the packages where it can).
 */
export function describeWith(programs: Record<string, [file: string, ...args: string[]]>): jest.Describe {
  const missing = Object.entries(programs).filter(([, [file, ...args]]) => !runs(file, args));
  if (missing.length === 0) return describe;
  return ((name: string, fn: () => void) => {
    const what = missing.map(([pkg, [file]]) => `${file} (apt-get install ${pkg})`).join(', ');
    process.stderr.write(`[proxy tests] skipped "${name}": cannot run ${what}\n`);
    describe.skip(name, fn);
  }) as jest.Describe;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Waits (polling) until `ready` says so; a process that died or never got there fails with what it wrote. */
async function waitUntil(ready: () => Promise<boolean> | boolean, what: string, child: ChildProcess, output: () => string): Promise<void> {
  const limitMs = 20_000;
  const started = Date.now();
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`${what}: the process exited (${child.exitCode}):\n${output()}`);
    if (Date.now() - started > limitMs) throw new Error(`${what}: not ready after ${limitMs} ms:\n${output()}`);
    await sleep(50);
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * A proxy process once `ready` resolves, and how to close it: stopped, and the folder it ran in removed.
 * One that never gets ready is closed at once and `ready`'s error thrown.
 */
async function started(child: ChildProcess, dir: string, ready: () => Promise<void>): Promise<() => Promise<void>> {
  const close = async () => {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready();
  } catch (error) {
    await close();
    throw error;
  }
  return close;
}

export interface RunningProxy {
  httpPort: number;
  httpsPort: number;
  /** The certificate authority a client must trust to verify the proxy's certificates. */
  ca: Buffer;
  close(): Promise<void>;
}

/**
 * Caddy running the documented Caddyfile in front of the API at `api` (host:port), on loopback ports of
 * its own. Only what a test needs is added to the recipe's global options: its ports, loopback, no admin
 * endpoint, storage in a temporary folder, and its internal CA instead of a public ACME one.
 */
export async function startCaddy(api: string): Promise<RunningProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'lnk-caddy-'));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const recipe = readFileSync(join(RECIPES, 'Caddyfile'), 'utf8');
  const testOptions = [
    `http_port ${httpPort}`,
    `https_port ${httpsPort}`,
    'default_bind 127.0.0.1',
    'admin off',
    `storage file_system ${join(dir, 'data')}`,
    'local_certs',
    'skip_install_trust',
  ];
  if (!/^\{$/m.test(recipe)) throw new Error('the Caddyfile has no global options block');
  const caddyfile = recipe.replace(/^\{$/m, `{\n${testOptions.map((o) => `\t${o}`).join('\n')}`);
  writeFileSync(join(dir, 'Caddyfile'), caddyfile);
  let output = '';
  const child = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    env: { ...process.env, LNK_API: api, HOME: dir, XDG_DATA_HOME: join(dir, 'xdg-data'), XDG_CONFIG_HOME: join(dir, 'xdg-config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const root = join(dir, 'data', 'pki', 'authorities', 'local', 'root.crt');
  const close = await started(child, dir, () =>
    waitUntil(
      async () => existsSync(root) && (await accepts(httpsPort)),
      'caddy',
      child,
      () => output,
    ),
  );
  return { httpPort, httpsPort, ca: readFileSync(root), close };
}

/**
 * nginx running the documented example in front of the API at `api` (host:port): the example's ports,
 * upstream and certificate paths replaced by the test's, inside a minimal nginx.conf of the test's own.
 * `certificate`: a certificate (and key) for the example's host names.
 */
export async function startNginx(api: string, certificate: { cert: string; key: string }): Promise<RunningProxy & { checked: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'lnk-nginx-'));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'lnk.crt'), certificate.cert);
  writeFileSync(join(dir, 'lnk.key'), certificate.key);
  const edits: [RegExp, string][] = [
    [/server 127\.0\.0\.1:3000;/g, `server ${api};`],
    [/^\s*listen \[::\]:.*$/gm, ''],
    [/listen 80;/g, `listen 127.0.0.1:${httpPort};`],
    [/listen 443 /g, `listen 127.0.0.1:${httpsPort} `],
    [/\/etc\/ssl\/lnk\/lnk\.example\.crt/g, join(dir, 'lnk.crt')],
    [/\/etc\/ssl\/lnk\/lnk\.example\.key/g, join(dir, 'lnk.key')],
  ];
  const example = edits.reduce(
    (text, [pattern, by]) => {
      // A recipe that no longer says what is replaced must fail here, not listen on the machine's port 80.
      if (!text.match(pattern)) throw new Error(`the nginx example no longer has ${pattern}`);
      return text.replace(pattern, by);
    },
    readFileSync(join(RECIPES, 'nginx.conf'), 'utf8'),
  );
  writeFileSync(join(dir, 'lnk.conf'), example);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`);
  const main = [
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    'error_log stderr;',
    'daemon off;',
    'events { worker_connections 64; }',
    'http {',
    '  access_log off;',
    ...temp,
    `  include ${join(dir, 'lnk.conf')};`,
    '}',
  ];
  writeFileSync(join(dir, 'nginx.conf'), `${main.join('\n')}\n`);
  const args = ['-p', dir, '-e', 'stderr', '-c', join(dir, 'nginx.conf')];
  const test = spawnSync(NGINX, [...args, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`nginx -t refused the example:\n${test.stderr}`);
  }
  let output = '';
  const child = spawn(NGINX, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const close = await started(child, dir, () =>
    waitUntil(
      () => accepts(httpsPort),
      'nginx',
      child,
      () => output,
    ),
  );
  return { httpPort, httpsPort, ca: Buffer.from(certificate.cert), checked: test.stderr, close };
}

/** A self-signed certificate for these names (openssl), as nginx takes certificates from files. */
export function selfSignedCertificate(names: string[]): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'lnk-cert-'));
  try {
    const altNames = `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`;
    const args = [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${names[0]}`,
      '-addext',
      altNames,
    ];
    const made = spawnSync('openssl', [...args, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl could not make a certificate:\n${made.stderr}`);
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string | null;
  text: string;
  /** The certificate the proxy presented for the server name (verified against the CA given). */
  certificate: PeerCertificate;
}

/** An HTTPS request to the proxy on loopback, as a client that resolved `host` to it: SNI and Host name it. */
export function overHttps(
  proxy: RunningProxy,
  host: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { host: `${host}:${proxy.httpsPort}` };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    if (body) headers['content-type'] = 'application/json';
    const req = httpsRequest(
      { host: '127.0.0.1', port: proxy.httpsPort, servername: host, ca: proxy.ca, method, path, headers, agent: false },
      (res) => {
        const certificate = (res.socket as TLSSocket).getPeerCertificate();
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            contentType: res.headers['content-type'] ?? null,
            text: Buffer.concat(chunks).toString('utf8'),
            certificate,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
