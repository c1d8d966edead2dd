import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { startDnsServer } from './dns-server';
import { startTestApp, TestApp } from './test-app';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export interface TwoInstances {
  database: TestDatabase;
  a: TestApp;
  b: TestApp;
  dns: Awaited<ReturnType<typeof startDnsServer>>;
}

/**
 * Two instances of the app sharing one test database and Redis (custom domains resolved through a loopback
 * DNS server), started before the suite's tests and closed after them: `instances()` gives them to a test.
 */
export function useTwoInstances(env: Record<string, string> = {}): () => TwoInstances {
  let started: TwoInstances | undefined;
  let database: TestDatabase | undefined;
  let dns: TwoInstances['dns'] | undefined;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    dns = await startDnsServer();
    const shared = { REDIS_URL, DNS_SERVERS: dns.address, DNS_TARGET: 'cname.lnk.test', ...env };
    apps.push(await startTestApp({ database, env: shared }));
    apps.push(await startTestApp({ database, env: shared }));
    started = { database, dns, a: apps[0], b: apps[1] };
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await dns?.close();
    await database?.drop();
  });
  return () => {
    if (!started) throw new Error('the two instances are not started (useTwoInstances runs in beforeAll)');
    return started;
  };
}

/** Polls `check` every `everyMs` until it answers true or `ms` pass; answers its last answer. */
export async function within(ms: number, check: () => Promise<boolean>, everyMs = 25): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return check();
}
