import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { asBrowser } from './support/visitor';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
/** An address in the United Kingdom by IP2Location LITE's data. */
const UK_ADDRESS = '81.2.69.160';

describe('statistics by dimension, over time and by link (issue 17)', () => {
  let t: TestApp;
  let ada: TestAccount;
  let bob: TestAccount;
  const today = new Date().toISOString().slice(0, 10);
  const period = `startDate=${today}&endDate=${today}`;

  beforeAll(async () => {
    // Behind a proxy: the client address is the X-Forwarded-For one.
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    ada = await createAccount(t);
    bob = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const link = async (account: TestAccount, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/user/link', { token: account.accessToken, body });
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data as { id: string; shortUrl: string };
  };
  const visit = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(t.baseUrl + path, { redirect: 'manual', ...init, headers: asBrowser(init.headers) });
  const flush = () => t.app.get('CONTEXTS').analytics.clicks.flush();
  const get = (account: TestAccount, path: string) => t.request('GET', path, { token: account.accessToken });
  const values = async (account: TestAccount, dimension: string, query: string) => {
    const res = await get(account, `/user/stats/${dimension}?${period}&${query}`);
    expect([dimension, res.status]).toEqual([dimension, 200]);
    return Object.fromEntries(res.body.data.map((v: { value: string; visits: number }) => [v.value, v.visits]));
  };

  it(
    'shows a redirect with a Referer, a mobile User-Agent and an address of ' + 'a known country in each breakdown; bots and HEAD in none',
    async () => {
      const created = await link(ada, { url: 'https://example.com/dimensions', slug: 'dims' });
      const headers = { 'user-agent': IPHONE, referer: 'https://news.example.com/item?id=42', 'x-forwarded-for': UK_ADDRESS };
      expect((await visit('/dims?utm_source=mail', { headers })).status).toBe(302);
      await visit('/dims', { headers });
      // Not visits: a bot, a script, a HEAD.
      await visit('/dims', { headers: { ...headers, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' } });
      await fetch(`${t.baseUrl}/dims`, {
        redirect: 'manual',
        headers: { referer: 'https://news.example.com/', 'x-forwarded-for': UK_ADDRESS },
      });
      await visit('/dims', { method: 'HEAD', headers });
      await flush();

      const only = `linkId=${created.id}`;
      expect(await values(ada, 'referrers', only)).toEqual({ 'news.example.com': 2 });
      expect(await values(ada, 'countries', only)).toEqual({ GB: 2 });
      expect(await values(ada, 'devices', only)).toEqual({ mobile: 2 });
      expect(await values(ada, 'browsers', only)).toEqual({ Safari: 2 });
      expect(await values(ada, 'os', only)).toEqual({ iOS: 2 });
      expect(await values(ada, 'triggers', only)).toEqual({ link: 2 });
      const res = await get(ada, `/user/stats/countries?${period}&${only}`);
      expect(res.body).toMatchObject({ data: [{ value: 'GB', visits: 2 }], meta: { total: 1 } });
    },
  );

  it('counts a visit through the QR code as trigger qr, the marker kept from the destination', async () => {
    const created = await link(ada, { url: 'https://example.com/poster', slug: 'poster' });
    const png = await fetch(`${t.baseUrl}/user/link/${created.id}/qr?size=200`, {
      headers: { authorization: `Bearer ${ada.accessToken}` },
    });
    const image = PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    const encoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data as string;
    expect(encoded).toBe(`${created.shortUrl}?lnk_qr=1`);
    const scanned = await visit(new URL(encoded).pathname + new URL(encoded).search);
    expect(scanned.headers.get('location')).toBe('https://example.com/poster');
    await visit('/poster');
    await flush();
    expect(await values(ada, 'triggers', `linkId=${created.id}`)).toEqual({ qr: 1, link: 1 });
  });

  it('answers a time series per day, week or month, and the top links, for the caller only', async () => {
    const first = await link(ada, { url: 'https://example.com/a', slug: 'top-a' });
    const second = await link(ada, { url: 'https://example.com/b', slug: 'top-b' });
    for (let i = 0; i < 3; i++) await visit('/top-a');
    await visit('/top-b');
    await flush();

    const daily = await get(ada, `/user/stats/timeseries?${period}&linkId=${first.id}`);
    expect(daily.body).toMatchObject({ data: [{ date: `${today}T00:00:00.000Z`, visits: 3 }], meta: { total: 1 } });
    const monthly = await get(
      ada,
      `/user/stats/timeseries?interval=month&startDate=${today.slice(0, 8)}01&endDate=${today}&linkId=${second.id}`,
    );
    expect(monthly.body.data).toEqual([{ date: `${today.slice(0, 8)}01T00:00:00.000Z`, visits: 1 }]);
    expect((await get(ada, `/user/stats/timeseries?interval=week&${period}`)).status).toBe(200);

    const top = await get(ada, `/user/stats/links?${period}&limit=100`);
    const ids = top.body.data.map((l: { linkId: string }) => l.linkId);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(top.body.data.find((l: { linkId: string }) => l.linkId === first.id)).toEqual({
      linkId: first.id,
      linkName: 'top-a',
      domainId: null,
      domainName: '127.0.0.1',
      visits: 3,
    });
    expect((await get(bob, `/user/stats/links?${period}`)).body.data).toEqual([]);
    expect(await values(bob, 'referrers', '')).toEqual({});
  });

  it('filters by tag and domain, and answers NOT_FOUND for another account’s link or tag', async () => {
    const tag = (await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'campaign' } })).body.data;
    const tagged = await link(ada, { url: 'https://example.com/t', slug: 'tagged', tags: [tag.id] });
    await visit('/tagged', { headers: { referer: 'https://mail.example/' } });
    await flush();
    expect(await values(ada, 'referrers', `tagId=${tag.id}`)).toEqual({ 'mail.example': 1 });
    expect((await get(ada, `/user/stats/links?${period}&tagId=${tag.id}`)).body.data.map((l: { linkId: string }) => l.linkId)).toEqual([
      tagged.id,
    ]);
    expect(await values(ada, 'referrers', `domainId=${'0'.repeat(24)}`)).toEqual({});

    for (const path of [
      `/user/stats/referrers?${period}&linkId=${tagged.id}`,
      `/user/stats/timeseries?${period}&linkId=${tagged.id}`,
      `/user/stats/links?${period}&tagId=${tag.id}`,
    ]) {
      const res = await get(bob, path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect((await get(ada, `/user/stats/planets?${period}`)).status).toBe(404);
  });

  // Issue 28: a wrong name was a bare 404 that named nothing, and the singular a client would guess was one.
  it('answers an unknown dimension 404 NOT_FOUND listing the names it takes, and takes the singular of each', async () => {
    const created = await link(ada, { url: 'https://example.com/singular', slug: 'singular' });
    await visit('/singular', { headers: { 'user-agent': IPHONE, referer: 'https://news.example.com/', 'x-forwarded-for': UK_ADDRESS } });
    await flush();
    const only = `linkId=${created.id}`;
    for (const [singular, plural] of [
      ['referrer', 'referrers'],
      ['country', 'countries'],
      ['device', 'devices'],
      ['browser', 'browsers'],
      ['os', 'os'],
      ['trigger', 'triggers'],
    ]) {
      expect([singular, await values(ada, singular, only)]).toEqual([singular, await values(ada, plural, only)]);
    }
    expect(await values(ada, 'country', only)).toEqual({ GB: 1 });
    for (const name of ['planets', 'Countries', 'countrie', 'timeserie']) {
      const res = await get(ada, `/user/stats/${name}?${period}`);
      expect([name, res.status, res.body.code, res.body.meta]).toEqual([
        name,
        404,
        'NOT_FOUND',
        { dimensions: ['referrers', 'countries', 'devices', 'browsers', 'os', 'triggers'] },
      ]);
      expect(res.body.message).toContain('referrers, countries, devices, browsers, os, triggers');
    }
  });

  // Date.parse reads 2026-02-30 as March 2: a day that does not exist is refused, by name, whatever else is wrong.
  it('refuses a day that does not exist, naming the field, beside any other bad field', async () => {
    for (const [path, fields] of [
      ['/user/stats/countries?startDate=2026-02-30&endDate=2026-03-31', ['startDate']],
      ['/user/stats?startDate=2026-01-01&endDate=2026-04-31', ['endDate']],
      ['/user/stats/links?startDate=2026-02-29&endDate=2026-03-01&limit=0', ['limit', 'startDate']],
      ['/user/stats/timeseries?startDate=2026-02-30&endDate=2026-03-01&interval=year', ['interval', 'startDate']],
    ] as const) {
      const res = await get(ada, path);
      expect([path, res.status, res.body.code, res.body.meta?.errors?.map((e: { name: string }) => e.name).sort()]).toEqual([
        path,
        400,
        'VALIDATION_ERROR',
        fields,
      ]);
    }
  });

  it('refuses a bad period, interval or limit as GET /user/stats does, naming the field', async () => {
    for (const [path, field] of [
      [`/user/stats/countries?startDate=${today}`, 'endDate'],
      ['/user/stats/links?startDate=2026-03-02&endDate=2026-03-01', 'endDate'],
      ['/user/stats/timeseries?startDate=2025-01-01&endDate=2026-03-01', 'endDate'],
      [`/user/stats/timeseries?${period}&interval=year`, 'interval'],
      [`/user/stats/devices?${period}&limit=0`, 'limit'],
    ]) {
      const res = await get(ada, path);
      expect([path, res.status, res.body.code, res.body.meta?.errors?.map((e: { name: string }) => e.name)]).toEqual([
        path,
        400,
        'VALIDATION_ERROR',
        [field],
      ]);
    }
  });

  it('keeps the dimensions of a deleted link, as its daily rows are kept', async () => {
    const created = await link(ada, { url: 'https://example.com/gone', slug: 'dims-gone' });
    await visit('/dims-gone', { headers: { referer: 'https://gone.example/' } });
    await flush();
    await t.request('DELETE', `/user/link/${created.id}`, { token: ada.accessToken });
    expect(await values(ada, 'referrers', 'limit=100')).toMatchObject({ 'gone.example': 1 });
  });
});
