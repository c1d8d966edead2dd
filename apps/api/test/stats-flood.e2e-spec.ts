import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { asBrowser } from './support/visitor';

// Statistics flooding: anyone who knows a short link chooses its UTM values, and each new combination
// used to be a new daily row (up to 200 characters a value), without bound.
describe('statistics under a flood of UTM values', () => {
  let t: TestApp;
  let ada: TestAccount;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await startTestApp();
    ada = await createAccount(t);
  });
  afterAll(() => t?.close());

  const link = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', '/user/link', { token: ada.accessToken, body });
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data as { id: string };
  };
  const visit = (path: string) => fetch(t.baseUrl + path, { redirect: 'manual', headers: asBrowser() }).then((r) => r.status);
  const flush = () => t.app.get('CONTEXTS').analytics.clicks.flush();
  const rowsOf = async (linkId: string) => {
    const res = await t.request('GET', `/user/stats?startDate=${today}&endDate=${today}`, { token: ada.accessToken });
    expect(res.status).toBe(200);
    return (res.body.data as { linkId: string; utmSource: string; utmMedium: string; utmCampaign: string; visits: number }[]).filter(
      (r) => r.linkId === linkId,
    );
  };

  it('keeps 1,000 distinct UTM combinations on one link to 100 rows and one (other) row a day, counting every visit', async () => {
    const flooded = await link({ url: 'https://example.com/flooded', slug: 'flooded' });
    // Written in ten batches: the bound must hold against the rows earlier batches stored.
    for (let batch = 0; batch < 10; batch++) {
      for (let i = 0; i < 100; i += 20) {
        const statuses = await Promise.all(
          Array.from({ length: 20 }, (_, j) =>
            visit(`/flooded?utm_source=s${batch}-${i + j}&utm_medium=m${i + j}&utm_campaign=${'c'.repeat(150)}`),
          ),
        );
        expect(statuses.every((s) => s === 302)).toBe(true);
      }
      await flush();
    }
    const rows = await rowsOf(flooded.id);
    expect(rows).toHaveLength(101);
    expect(rows.reduce((n, r) => n + r.visits, 0)).toBe(1000);
    expect(rows.find((r) => r.utmSource === '(other)')).toMatchObject({ utmMedium: '(other)', utmCampaign: '(other)', visits: 900 });
    expect(Math.max(...rows.map((r) => r.utmCampaign.length))).toBe(100);
    expect((await t.request('GET', `/user/link/${flooded.id}`, { token: ada.accessToken })).body.data.clicks).toBe(1000);
  });

  it('stores UTM values trimmed, lower-cased and without control or invisible characters', async () => {
    const tidy = await link({ url: 'https://example.com/tidy', slug: 'tidy' });
    expect(await visit('/tidy?utm_source=%20News%E2%80%8Bletter%09&utm_medium=E%01Mail&utm_campaign=Spring%20%20Sale')).toBe(302);
    expect(await visit('/tidy?utm_source=newsletter&utm_medium=email&utm_campaign=spring+sale')).toBe(302);
    await flush();
    expect((await rowsOf(tidy.id)).map((r) => [r.utmSource, r.utmMedium, r.utmCampaign, r.visits])).toEqual([
      ['newsletter', 'email', 'spring sale', 2],
    ]);
  });
});
