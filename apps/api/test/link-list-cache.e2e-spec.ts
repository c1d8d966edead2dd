import { TwoInstances, useTwoInstances, within } from './support/instances';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { asBrowser } from './support/visitor';

/**
 * GET /user/link answers from a cache by owner and query (ListLinksUseCase). A row changed in SQL behind the
 * app's back shows which answers came from the cache: it stays unseen until a write through the app evicts
 * the owner's answers, and then it shows with that write.
 */
describe('the cache of link lists', () => {
  // A long click interval: the cache's max age (which is it) never runs out during a test.
  const instances = useTwoInstances({
    SHORT_BASE_URL: 'https://s.lnk.test',
    CLICK_FLUSH_INTERVAL: '30000',
    CLICK_FLUSH_MAX_INTERVAL: '30000',
  });
  let a: TestApp;
  let b: TestApp;
  let dns: TwoInstances['dns'];
  beforeAll(() => ({ a, b, dns } = instances()));

  const list = async (app: TestApp, account: TestAccount, query = 'limit=20') => {
    const res = await app.request('GET', `/user/link?${query}`, { token: account.accessToken });
    expect(res.status).toBe(200);
    return res.body as { data: { id: string; title: string; shortUrl: string; clicks: number }[]; meta: { total: number } };
  };
  const titles = async (app: TestApp, account: TestAccount, query?: string) => (await list(app, account, query)).data.map((l) => l.title);
  const create = async (account: TestAccount, body: Record<string, unknown>) =>
    (await a.request('POST', '/user/link', { token: account.accessToken, body })).body.data;
  /** A change the app is not told of: an answer that does not show it came from the cache. */
  const behindTheAppsBack = (id: string, title: string) => a.dataSource.query('UPDATE links SET title = $2 WHERE id = $1', [id, title]);

  it('answers a repeated list from the cache, and shows a creation at once (with what changed meanwhile)', async () => {
    const ada = await createAccount(a);
    const first = await create(ada, { url: 'https://example.com/1', title: 'first' });
    expect(await titles(a, ada)).toEqual(['first']);
    await behindTheAppsBack(first.id, 'renamed in SQL');
    expect(await titles(a, ada)).toEqual(['first']); // from the cache
    await create(ada, { url: 'https://example.com/2', title: 'second' });
    const after = await list(a, ada);
    expect(after.data.map((l) => l.title)).toEqual(['second', 'renamed in SQL']);
    expect(after.meta.total).toBe(2);
  });

  // A cached answer is sent as the JSON text made once (SerializedOk): the same bytes and headers as a fresh one.
  it('sends a cached answer as the same JSON, with the same content type, as the answer it keeps', async () => {
    const ada = await createAccount(a);
    await create(ada, { url: 'https://example.com/j', title: 'json' });
    const fresh = await a.request('GET', '/user/link?q=JSON', { token: ada.accessToken });
    const cached = await a.request('GET', '/user/link?q=json', { token: ada.accessToken });
    expect(cached.text).toBe(fresh.text);
    expect(cached.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(fresh.body).toMatchObject({ status: 200, code: 'OK', data: [{ title: 'json' }], meta: { total: 1, start: 0, limit: 10 } });
  });

  it('shows an update and a deletion at once, in pages and in searches', async () => {
    const ada = await createAccount(a);
    const one = await create(ada, { url: 'https://example.com/1', title: 'one' });
    await create(ada, { url: 'https://example.com/2', title: 'two' });
    expect(await titles(a, ada, 'q=launch')).toEqual([]);
    expect(await titles(a, ada)).toEqual(['two', 'one']);
    await a.request('PUT', `/user/link/${one.id}`, { token: ada.accessToken, body: { title: 'Launch day' } });
    expect(await titles(a, ada, 'q=launch')).toEqual(['Launch day']);
    expect(await titles(a, ada)).toEqual(['two', 'Launch day']);
    await a.request('DELETE', `/user/link/${one.id}`, { token: ada.accessToken });
    expect(await titles(a, ada, 'q=launch')).toEqual([]);
    expect((await list(a, ada)).meta.total).toBe(1);
  });

  it('shows bulk creations, bulk deletions, retagging and imports at once', async () => {
    const ada = await createAccount(a);
    const as = (method: string, path: string, body: unknown) => a.request(method, path, { token: ada.accessToken, body });
    const made = (
      await as('POST', '/user/link/bulk', {
        links: [
          { url: 'https://example.com/b1', title: 'b1' },
          { url: 'https://example.com/b2', title: 'b2' },
        ],
      })
    ).body.data;
    expect(await titles(a, ada)).toEqual(['b2', 'b1']);
    await as('DELETE', '/user/link/bulk', { ids: [made[0].id] });
    expect(await titles(a, ada)).toEqual(['b2']);
    // Tags are not in list items: a retag is proved to evict by the SQL change it brings out.
    await behindTheAppsBack(made[1].id, 'b2 renamed in SQL');
    expect(await titles(a, ada)).toEqual(['b2']);
    expect((await as('POST', '/user/link/bulk/tags', { ids: [made[1].id], add: ['spring'] })).status).toBe(200);
    expect(await titles(a, ada)).toEqual(['b2 renamed in SQL']);
    const imported = await a.request('POST', '/user/link/import', {
      token: ada.accessToken,
      raw: { body: 'url,title\nhttps://example.com/i1,imported\n', contentType: 'text/csv' },
    });
    expect(imported.status).toBe(200);
    expect(await titles(a, ada)).toEqual(['imported', 'b2 renamed in SQL']);
  });

  it('shows a link moved to a custom domain with its new short URL at once', async () => {
    const ada = await createAccount(a);
    const domain = (await a.request('POST', '/user/domain', { token: ada.accessToken, body: { name: 'moved.example.com' } })).body.data;
    dns.cnames.set('moved.example.com', 'cname.lnk.test');
    dns.txts.set(domain.verification.name, [domain.verification.value]);
    expect((await a.request('POST', `/user/domain/${domain.id}/verify`, { token: ada.accessToken })).status).toBe(200);
    const link = await create(ada, { url: 'https://example.com/m', slug: 'moving' });
    expect((await list(a, ada)).data[0].shortUrl).toBe('https://s.lnk.test/moving');
    await a.request('PUT', `/user/link/${link.id}`, { token: ada.accessToken, body: { domainId: domain.id } });
    expect((await list(a, ada)).data[0].shortUrl).toBe('https://moved.example.com/moving');
  });

  // The key holds the owner: the same query of another account is never answered with the first one's page.
  it("never answers one account with another's page of the same query", async () => {
    const ada = await createAccount(a);
    const bob = await createAccount(a);
    await create(ada, { url: 'https://example.com/ada', title: "ada's" });
    expect(await titles(a, ada)).toEqual(["ada's"]);
    expect(await titles(a, bob)).toEqual([]);
    await create(bob, { url: 'https://example.com/bob', title: "bob's" });
    expect(await titles(a, bob)).toEqual(["bob's"]);
    expect(await titles(a, ada)).toEqual(["ada's"]);
  });

  // Each instance has its own cache: without lnk:links-changed the other one would answer its old page until its max age (30 s here).
  it(
    'shows a change made through one instance on the other within a ' + 'second, though the other had just answered from its cache',
    async () => {
      const ada = await createAccount(a);
      const link = await create(ada, { url: 'https://example.com/x', title: 'before' });
      expect(await titles(b, ada)).toEqual(['before']); // now cached on b
      await a.request('PUT', `/user/link/${link.id}`, { token: ada.accessToken, body: { title: 'after' } });
      expect(await within(1000, async () => (await titles(b, ada)).join() === 'after')).toBe(true);
    },
  );
});

/**
 * Click totals are not invalidated (every counted visit changes one): a cached answer lives at most
 * CLICK_FLUSH_INTERVAL, so a visit shows in the list at most that long after its total is written (itself
 * at most CLICK_FLUSH_MAX_INTERVAL after the visit).
 */
describe('click totals in cached list answers', () => {
  let t: TestApp;
  const maxAgeMs = 300;

  beforeAll(async () => {
    t = await startTestApp({ env: { CLICK_FLUSH_INTERVAL: String(maxAgeMs), CLICK_FLUSH_MAX_INTERVAL: String(maxAgeMs) } });
  });
  afterAll(() => t?.close());

  it('shows a counted visit in the list within the max age of an answer once its total is written', async () => {
    const ada = await createAccount(t);
    const link = (
      await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://example.com/c', slug: 'counted' } })
    ).body.data;
    const clicksInList = async () =>
      (await t.request('GET', '/user/link?limit=20', { token: ada.accessToken })).body.data[0].clicks as number;
    expect(await clicksInList()).toBe(0); // cached with no clicks
    expect((await fetch(`${t.baseUrl}/counted`, { redirect: 'manual', headers: asBrowser() })).status).toBe(302);
    // The detail is never cached: once it shows the visit, the total is written.
    await t.app.get('CONTEXTS').analytics.clicks.flush();
    expect((await t.request('GET', `/user/link/${link.id}`, { token: ada.accessToken })).body.data.clicks).toBe(1);
    // Within the answer's max age (a second of slack for a shared machine's scheduling).
    expect(await within(maxAgeMs + 1000, async () => (await clicksInList()) === 1)).toBe(true);
  });
});
