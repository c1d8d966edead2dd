import { Socket, connect } from 'node:net';
import { request } from 'node:http';

/**
 * Which PostgreSQL the tests use, in this order: TEST_DATABASE_URL; a Testcontainers PostgreSQL when a
 * Docker engine answers; the server on 127.0.0.1:5432 when one answers; else embedded PGlite.
 * Kept free of module aliases: Jest's global setup loads it outside the test runtime.
 */
export type TestDatabaseServer =
  { kind: 'postgres'; adminUrl: string; source: 'TEST_DATABASE_URL' | 'testcontainers' | 'local' } | { kind: 'pglite'; source: 'pglite' };

export interface ServerProbes {
  env: Record<string, string | undefined>;
  dockerAnswers(): Promise<boolean>;
  startContainer(): Promise<string>;
  localPostgresAnswers(): Promise<boolean>;
}

export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export async function chooseTestDatabaseServer(probes: ServerProbes): Promise<TestDatabaseServer> {
  if (probes.env['TEST_DATABASE_URL']) return { kind: 'postgres', adminUrl: probes.env['TEST_DATABASE_URL'], source: 'TEST_DATABASE_URL' };
  if (await probes.dockerAnswers()) return { kind: 'postgres', adminUrl: await probes.startContainer(), source: 'testcontainers' };
  if (await probes.localPostgresAnswers()) return { kind: 'postgres', adminUrl: LOCAL_POSTGRES_URL, source: 'local' };
  return { kind: 'pglite', source: 'pglite' };
}

export function tcpAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when a Docker engine answers its ping (a docker client alone is not enough). */
export function dockerEngineAnswers(env: Record<string, string | undefined>, timeoutMs = 1000): Promise<boolean> {
  const host = env['DOCKER_HOST'];
  const target =
    !host || host.startsWith('unix://')
      ? { socketPath: host ? host.slice('unix://'.length) : '/var/run/docker.sock' }
      : (() => {
          const url = new URL(host.replace(/^tcp:/, 'http:'));
          return { host: url.hostname, port: Number(url.port || 2375) };
        })();
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
