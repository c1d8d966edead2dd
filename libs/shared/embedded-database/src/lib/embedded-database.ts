import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, Server, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openPglite, PgliteHost, Session } from './pglite-driver';
import { ensurePrivateDataDir } from './private-data-dir';

/**
 * The embedded database belongs to one process. Whoever opens it (the server, or an operator command
 * while no server runs) first listens on a Unix socket inside DATA_DIR: binding that path is the lock,
 * and the operating system takes the listener away when the process dies, however it dies. A socket
 * file left by a killed process answers no one, so the next process removes it and takes its place.
 *
 * The holder also serves the database on that socket, speaking PostgreSQL's protocol, so another
 * process (the CLI while the server runs) reaches the same database through `pg` instead of opening
 * the files a second time. Only the owner of DATA_DIR can connect: the socket's folder is 0700.
 * Each socket client borrows the one PGlite session like any connection of the holder's own pool, and
 * keeps it from its first statement until PostgreSQL reports it idle again (outside a transaction), so
 * transactions of the two processes never interleave.
 */

/** The port in the socket's name: `pg` connects to `<folder>/.s.PGSQL.<port>`. */
export const EMBEDDED_SOCKET_PORT = 5432;

/** Who holds the database, as the refusal names it. */
export interface EmbeddedDatabaseHolder {
  /** What the process is: "the server", "an operator command". */
  name: string;
  /** Where it answers, when it is a server. */
  url?: string;
}

interface HolderRecord extends EmbeddedDatabaseHolder {
  pid: number;
}

export function embeddedSocketDir(dataDir: string): string {
  return join(resolve(dataDir), 'socket');
}

const socketPath = (dir: string) => join(dir, `.s.PGSQL.${EMBEDDED_SOCKET_PORT}`);
const holderPath = (dir: string) => join(dir, 'holder.json');
// macOS allows 104 bytes for a socket's path (Linux 108), the final NUL included.
const MAX_SOCKET_PATH = 103;

export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: HolderRecord | null,
    readonly socketDir: string,
  ) {
    super(`the embedded database in ${dataDir} is open in ${describeHolder(holder)}`);
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

function describeHolder(holder: HolderRecord | null): string {
  if (!holder) return 'another process';
  return `${holder.name} (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''})`;
}

function readHolder(dir: string): HolderRecord | null {
  try {
    const record = JSON.parse(readFileSync(holderPath(dir), 'utf8')) as HolderRecord;
    return typeof record.pid === 'number' && typeof record.name === 'string' ? record : null;
  } catch {
    return null;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** True when a process listens on the socket (or one we may not reach: it is not ours to take). */
function answers(path: string): Promise<boolean> {
  return new Promise((done) => {
    const probe = createConnection(path);
    const timer = setTimeout(() => {
      probe.destroy();
      done(true);
    }, 5000);
    probe.once('connect', () => {
      clearTimeout(timer);
      probe.destroy();
      done(true);
    });
    probe.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      done(error.code !== 'ECONNREFUSED' && error.code !== 'ENOENT');
    });
  });
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(path, () => {
      server.off('error', fail);
      done();
    });
  });
}

/**
 * Two processes starting at the same moment after a crash would both find the socket file dead and
 * both take its place; this short mutual exclusion (a folder, held for milliseconds) orders them.
 */
async function exclusively<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const guard = join(dir, 'claim.lock');
  for (let waited = 0; ; waited += 25) {
    try {
      mkdirSync(guard);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        // Held for milliseconds: one this old was left by a process killed while holding it.
        if (Date.now() - statSync(guard).mtimeMs > 10_000) rmSync(guard, { recursive: true, force: true });
      } catch {
        // gone meanwhile
      }
      if (waited > 30_000) throw new Error(`${guard} was not released`, { cause: error });
      await sleep(25);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(guard, { recursive: true, force: true });
  }
}

/** Takes the lock: listens on the socket, or says who does. */
async function lock(dataDir: string, holder: EmbeddedDatabaseHolder): Promise<Server> {
  const dir = embeddedSocketDir(dataDir);
  // Windows has named pipes where Unix has sockets: the lock works alike, but `pg` cannot reach one.
  const windows = process.platform === 'win32';
  const path = windows
    ? `\\\\.\\pipe\\lnk-db-${createHash('sha256').update(resolve(dataDir).toLowerCase()).digest('hex').slice(0, 32)}`
    : socketPath(dir);
  if (!windows && Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(
      `DATA_DIR ${dataDir} is too long a path for the embedded database's socket (${path} ` +
        `must be at most ${MAX_SOCKET_PATH} bytes): choose a shorter DATA_DIR`,
    );
  }
  // Refused before anything is written in it when it is another user's or open to others.
  ensurePrivateDataDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return exclusively(dir, async () => {
    for (let attempt = 0; ; attempt++) {
      const server = createServer();
      try {
        await listen(server, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw error;
        if (await answers(path)) throw new EmbeddedDatabaseInUseError(resolve(dataDir), readHolder(dir), dir);
        // Left by a process that died without closing it.
        rmSync(path, { force: true });
        continue;
      }
      if (!windows) chmodSync(path, 0o600);
      writeFileSync(holderPath(dir), JSON.stringify({ pid: process.pid, ...holder } satisfies HolderRecord), { mode: 0o600 });
      return server;
    }
  });
}

/** The status byte of the last ReadyForQuery in `output` ('I' idle, 'T' in a transaction, 'E' failed one), if any. */
export function lastReadyStatus(output: Uint8Array): string | null {
  let status: string | null = null;
  for (let at = 0; at + 5 <= output.length;) {
    const type = output[at];
    const length = ((output[at + 1] << 24) | (output[at + 2] << 16) | (output[at + 3] << 8) | output[at + 4]) >>> 0;
    if (length < 4) break;
    if (type === 0x5a /* Z */ && at + 5 < output.length) status = String.fromCharCode(output[at + 5]);
    at += 1 + length;
  }
  return status;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = Uint8Array.from([0x53, 0, 0, 0, 4]);
const MAX_MESSAGE = 1 << 30;

/**
 * One socket client. Messages are framed here and handed to PGlite whole, in order; the session is
 * taken before the first of them and given back only when PGlite says the session is idle. A client
 * that goes away in the middle of a transaction has it rolled back before the session is handed on.
 */
function serveConnection(socket: Socket, session: Session, db: () => Promise<PGlite>): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let started = false;
  let release: (() => void) | null = null;
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (step: () => Promise<void> | void) => {
    queue = queue.then(step).catch(() => {
      socket.destroy();
    });
  };

  const forward = (messages: Buffer) => async () => {
    if (socket.destroyed) return;
    release ??= await session.acquire();
    const output = await (await db()).execProtocolRaw(new Uint8Array(messages));
    if (output.length > 0 && !socket.destroyed) socket.write(output);
    if (lastReadyStatus(output) === 'I') {
      release();
      release = null;
    }
  };

  socket.on('data', (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    const batch: Buffer[] = [];
    for (;;) {
      if (!started) {
        // Startup messages have no type byte: a length, then a code.
        if (pending.length < 8) break;
        const length = pending.readInt32BE(0);
        if (length < 8 || length > 10_000) return void socket.destroy();
        if (pending.length < length) break;
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        const code = message.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          // No encryption on a local socket: "N", and the client goes on in the clear.
          enqueue(() => void socket.write('N'));
          continue;
        }
        if (code === CANCEL_REQUEST) return void socket.destroy();
        started = true;
        enqueue(forward(Buffer.from(message)));
        continue;
      }
      if (pending.length < 5) break;
      const length = pending.readInt32BE(1) + 1;
      if (length < 5 || length > MAX_MESSAGE) return void socket.destroy();
      if (pending.length < length) break;
      const message = pending.subarray(0, length);
      pending = pending.subarray(length);
      if (message[0] === 0x58 /* X: Terminate */) {
        if (batch.length) enqueue(forward(Buffer.concat(batch)));
        batch.length = 0;
        enqueue(() => void socket.end());
        break;
      }
      batch.push(Buffer.from(message));
    }
    if (batch.length) enqueue(forward(Buffer.concat(batch)));
  });
  socket.on('error', () => socket.destroy());

  return new Promise((done) => {
    socket.once('close', () => {
      enqueue(async () => {
        if (!release) return;
        try {
          // End whatever the client left half done: an extended query without its Sync, a transaction.
          const database = await db();
          const status = lastReadyStatus(await database.execProtocolRaw(SYNC));
          if (status !== 'I') await database.exec('ROLLBACK');
        } finally {
          release();
          release = null;
        }
      });
      queue.then(() => done());
    });
  });
}

interface Shared {
  users: number;
  host: Omit<PgliteHost, 'release'>;
  close(): Promise<void>;
}

/** This process's embedded databases, by folder: every DataSource of the process on one folder shares one PGlite. */
const shared = new Map<string, Promise<Shared>>();
const closing = new Map<string, Promise<void>>();

async function open(dataDir: string, holder: EmbeddedDatabaseHolder): Promise<Shared> {
  const server = await lock(dataDir, holder);
  const dir = embeddedSocketDir(dataDir);
  const session = new Session();
  let instance: Promise<PGlite> | null = null;
  let stopping = false;
  const db = () => (instance ??= openPglite(dataDir));
  const connections = new Map<Socket, Promise<void>>();
  server.on('connection', (socket: Socket) => {
    if (stopping) return void socket.destroy();
    connections.set(
      socket,
      serveConnection(socket, session, db).finally(() => connections.delete(socket)),
    );
  });
  return {
    users: 0,
    host: { session, db },
    close: async () => {
      stopping = true;
      for (const socket of connections.keys()) socket.destroy();
      await Promise.all(connections.values());
      try {
        // Everything of ours that used the session is done; wait (a while) for what is under way to finish.
        await Promise.race([session.acquire().then((release) => release()), sleep(5000)]);
        if (instance) await (await instance).close();
      } finally {
        // The lock goes last: no one else opens the files before they are closed.
        rmSync(holderPath(dir), { force: true });
        await new Promise<void>((done) => server.close(() => done()));
      }
    },
  };
}

/**
 * This process's hold on the embedded database in `dataDir`: taken (or joined, when the process has it
 * already) now, kept until every holder has released it. Throws EmbeddedDatabaseInUseError when another
 * live process holds it.
 */
export async function claimEmbeddedDatabase(dataDir: string, holder: EmbeddedDatabaseHolder): Promise<PgliteHost> {
  const key = resolve(dataDir);
  await closing.get(key);
  let entry = shared.get(key);
  if (!entry) {
    entry = open(key, holder);
    shared.set(key, entry);
    entry.catch(() => shared.delete(key));
  }
  const current = await entry;
  current.users++;
  let released = false;
  return {
    session: current.host.session,
    db: current.host.db,
    release: async () => {
      if (released) return;
      released = true;
      if (--current.users > 0) return;
      shared.delete(key);
      const done = current.close().finally(() => closing.delete(key));
      closing.set(key, done);
      await done;
    },
  };
}
