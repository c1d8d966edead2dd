import { createAccount } from './support/identity';
import { freePlanLimits, TestApp, useTestApp } from './support/test-app';

const N = 12;
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('concurrent requests racing for one thing: exactly one winner, never a 500', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { env: { PLANS: freePlanLimits({ maxLinks: 3, maxTags: 2, maxDomains: 1 }) } });

  it('gives the last link, tag and domain slot of the quota to one request each', async () => {
    const ada = await createAccount(t);
    const post = (path: string, body: (i: number) => Record<string, unknown>) =>
      Promise.all(Array.from({ length: N }, (_, i) => t.request('POST', path, { token: ada.accessToken, body: body(i) })));
    for (let i = 0; i < 2; i++)
      expect((await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: `https://a.example/${i}` } })).status).toBe(200);
    expect((await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'first' } })).status).toBe(200);

    for (const [path, body] of [
      ['/user/link', (i: number) => ({ url: `https://race.example/${i}` })],
      ['/user/tag', (i: number) => ({ name: `race-${i}` })],
      ['/user/domain', (i: number) => ({ name: `race${i}.example.org` })],
    ] as const) {
      const answers = await post(path, body);
      const statuses = answers.map((a) => a.status);
      expect([path, count(statuses, 200), count(statuses, 403)]).toEqual([path, 1, N - 1]);
      expect(answers.filter((a) => a.status === 403).every((a) => a.body.code === 'QUOTA_EXCEEDED')).toBe(true);
    }
    const limits = await t.request('GET', '/user/me/limits', { token: ada.accessToken });
    expect(limits.body.data).toEqual({ links: { used: 3, limit: 3 }, tags: { used: 2, limit: 2 }, domains: { used: 1, limit: 1 } });
  });

  it('gives one slug to one of many links claiming it at once', async () => {
    const bob = await createAccount(t);
    const answers = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        t.request('POST', '/user/link', { token: bob.accessToken, body: { url: `https://b.example/${i}`, slug: 'contested' } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect([count(statuses, 200), count(statuses, 400)]).toEqual([1, 2]);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.meta.errors[0].name === 'slug')).toBe(true);
    // Across accounts too: the default short domain has one namespace.
    const others = await Promise.all(
      Array.from({ length: 3 }, async () =>
        t.request('POST', '/user/link', {
          token: (await createAccount(t)).accessToken,
          body: { url: 'https://c.example/', slug: 'contested-2' },
        }),
      ),
    );
    expect(others.map((a) => a.status).sort()).toEqual([200, 400, 400]);
  });

  it('rotates one refresh token once when it is presented many times at once', async () => {
    const carl = await createAccount(t);
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        t.request('POST', '/oauth/token', {
          body: {
            grant_type: 'refresh_token',
            refresh_token: carl.refreshToken,
            client_id: carl.client.clientId,
            client_secret: carl.client.clientSecret,
          },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s < 500)).toBe(true);
    expect(count(statuses, 200)).toBe(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.body.code === 'INVALID_GRANT')).toBe(true);
  });
});
