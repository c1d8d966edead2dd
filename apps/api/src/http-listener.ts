import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** The port is held by another process (or may not be opened by this one): nothing else was started. */
export class PortUnavailableError extends Error {
  constructor(
    readonly port: number,
    readonly host: string,
    readonly code: string,
  ) {
    super(
      code === 'EADDRINUSE'
        ? `Port ${port} on ${host} is already in use (is the service already ` +
            'running?): stop what holds it, or start with PORT set to a free port.'
        : `Port ${port} on ${host} cannot be opened (${code}): choose another PORT or HOST.`,
    );
  }
}

/** What a request gets while the app starts: 503 and a retry hint, not a hang nor a refused connection. */
function answerStarting(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'retry-after': '1',
    connection: 'close',
    'cache-control': 'no-store',
  });
  response.end(JSON.stringify({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'The service is starting' }));
}

export interface EarlyListener {
  server: Server;
  /** Fastify's serverFactory: the server above, handed over to Fastify's handler when Fastify listens. */
  serverFactory: (handler: Handler, options: { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number }) => Server;
}

/**
 * Binds the HTTP port before anything else starts, so that a port another process holds is one clear error
 * before the database is opened (a second start used to open the embedded database, then die with a raw
 * EADDRINUSE stack trace). The port is held from then on: no probe that another process could race.
 *
 * Fastify takes the bound server through its serverFactory. Its `listen()` is then a hand-over: the
 * server is listening already, so the call swaps the start-up answer (503) for Fastify's handler, at the
 * moment Fastify is ready, and reports 'listening' as a fresh bind would.
 */
export async function listenEarly(port: number, host: string): Promise<EarlyListener> {
  const server = createServer();
  server.on('request', answerStarting);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(new PortUnavailableError(port, host, error.code ?? String(error)));
    server.once('error', failed);
    server.listen({ port, host }, () => {
      server.off('error', failed);
      resolve();
    });
  });
  let handler: Handler | null = null;
  const handOver = ((...args: unknown[]) => {
    if (handler) {
      server.off('request', answerStarting);
      server.on('request', handler);
      handler = null;
    }
    const callback = args.find((arg): arg is () => void => typeof arg === 'function');
    process.nextTick(() => {
      server.emit('listening');
      callback?.();
    });
    return server;
  }) as Server['listen'];
  return {
    server,
    serverFactory: (given, options) => {
      handler = given;
      // What Fastify sets on a server it makes itself.
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
      server.listen = handOver;
      return server;
    },
  };
}

/**
 * The addresses a person can open for a server bound to `host`: on every interface (0.0.0.0, ::), the
 * loopback name and each external IPv4 address of the machine; else the host itself.
 */
export function listeningUrls(host: string, port: number, interfaces = networkInterfaces()): string[] {
  if (host === '0.0.0.0' || host === '::' || host === '') {
    const external = Object.values(interfaces)
      .flatMap((entries) => entries ?? [])
      .filter((entry) => entry.family === 'IPv4' && !entry.internal)
      .map((entry) => `http://${entry.address}:${port}`);
    return [`http://localhost:${port}`, ...new Set(external)];
  }
  return [`http://${host.includes(':') ? `[${host}]` : host}:${port}`];
}
