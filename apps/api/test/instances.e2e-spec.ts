import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { createAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('two instances sharing PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startTestApp({ database, env: { REDIS_URL } });
    b = await startTestApp({ database, env: { REDIS_URL } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return check();
  }

  const locationOn = async (app: TestApp, path: string) => (await fetch(app.baseUrl + path, { redirect: 'manual' })).headers.get('location');

  it('stops serving an old destination on the other instance within a second of an update', async () => {
    const account = await createAccount(a);
    const created = await a.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/old', slug: 'shared' } });
    expect(await locationOn(b, '/shared')).toBe('https://example.com/old'); // now cached on b
    await a.request('PUT', `/user/link/${created.body.data.id}`, { token: account.accessToken, body: { url: 'https://example.com/new' } });
    expect(await within(1000, async () => (await locationOn(b, '/shared')) === 'https://example.com/new')).toBe(true);
    await a.request('DELETE', `/user/link/${created.body.data.id}`, { token: account.accessToken });
    expect(await within(1000, async () => (await fetch(`${b.baseUrl}/shared`, { redirect: 'manual' })).status === 404)).toBe(true);
  });

  it('refuses a token on the other instance as soon as it is revoked', async () => {
    const account = await createAccount(a);
    expect((await b.request('GET', '/user/me', { token: account.accessToken })).status).toBe(200); // cached on b
    await a.request('POST', '/oauth/revoke', { body: { token: account.accessToken } });
    expect(await within(1000, async () => (await b.request('GET', '/user/me', { token: account.accessToken })).status === 401)).toBe(true);
  });
});
