import { createAccount, TestAccount } from './support/identity';
import { freePlanLimits, startTestApp, TestApp } from './support/test-app';

// Spec 9: the whole suite runs twice, the second time through the /v1 prefix.
describe.each(['', '/v1'])('links and tags over HTTP %s', (pathPrefix) => {
  let t: TestApp;
  let ada: TestAccount;
  let bob: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({
      env: { PLANS: freePlanLimits({ maxLinks: 5, maxTags: 3 }), SHORT_BASE_URL: 'https://s.lnk.test' },
      pathPrefix,
    });
    ada = await createAccount(t);
    bob = await createAccount(t);
  });
  afterAll(() => t?.close());

  const create = (account: TestAccount, body: Record<string, unknown>) =>
    t.request('POST', '/user/link', { token: account.accessToken, body });
  const cleanUp = async (account: TestAccount) => {
    const list = await t.request('GET', '/user/link?limit=100', { token: account.accessToken });
    for (const l of list.body.data) await t.request('DELETE', `/user/link/${l.id}`, { token: account.accessToken });
  };

  afterEach(async () => {
    await cleanUp(ada);
    await cleanUp(bob);
  });

  it('creates a link with the fields of spec 4.5 and a generated slug', async () => {
    const res = await create(ada, {
      url: 'https://example.com/a?b=c',
      title: 'Example',
      description: 'd',
      status: true,
      hasPassword: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200, code: 'OK', message: 'Link created' });
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      title: 'Example',
      slug: expect.stringMatching(/^[A-Za-z0-9]{7}$/),
      url: 'https://example.com/a?b=c',
      shortUrl: `https://s.lnk.test/${res.body.data.slug}`,
      description: 'd',
      status: true,
      domainId: null,
      hasPassword: false,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.any(String),
      clicks: 0,
      tags: [],
    });
    const detail = await t.request('GET', `/user/link/${res.body.data.id}`, { token: ada.accessToken });
    expect(detail.body.data).toEqual(res.body.data);
  });

  it.each([
    [{}, 'url'],
    [{ url: 'ftp://example.com/x' }, 'url'],
    [{ url: 'example.com' }, 'url'],
    [{ url: `https://example.com/${'a'.repeat(2050)}` }, 'url'],
    [{ url: 'https://s.lnk.test/abc' }, 'url'],
    [{ url: 'https://example.com', slug: 'has space' }, 'slug'],
    [{ url: 'https://example.com', slug: 'oauth' }, 'slug'],
    [{ url: 'https://example.com', slug: 'x'.repeat(65) }, 'slug'],
    [{ url: 'https://example.com', hasPassword: true }, 'password'],
    [{ url: 'https://example.com', domainId: '0123456789abcdef01234567' }, 'domainId'],
    [{ url: 'https://example.com', tags: ['0123456789abcdef01234567'] }, 'tags'],
    [{ url: 'https://example.com', status: 'yes' }, 'status'],
    [{ url: 'https://example.com', clicks: 5 }, 'clicks'],
  ])('refuses %j with VALIDATION_ERROR on %s', async (body, field) => {
    const res = await create(ada, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.meta.errors.map((e: { name: string }) => e.name)).toContain(field);
  });

  it('refuses a taken slug with VALIDATION_ERROR on slug, case-sensitively', async () => {
    expect((await create(ada, { url: 'https://example.com/1', slug: 'promo' })).status).toBe(200);
    const taken = await create(bob, { url: 'https://example.com/2', slug: 'promo' });
    expect(taken.status).toBe(400);
    expect(taken.body.meta.errors).toEqual([{ name: 'slug', error: expect.stringContaining('taken') }]);
    expect((await create(bob, { url: 'https://example.com/2', slug: 'Promo' })).status).toBe(200);
  });

  it('keeps a password as a hash, never shown, and removes it with hasPassword false', async () => {
    const res = await create(ada, { url: 'https://example.com', hasPassword: true, password: 'open sesame' });
    expect(res.body.data.hasPassword).toBe(true);
    expect(res.text).not.toContain('open sesame');
    const [row] = await t.dataSource.query('SELECT password_hash FROM links WHERE id = $1', [res.body.data.id]);
    expect(row.password_hash).toMatch(/^\$2[aby]\$/);
    const off = await t.request('PUT', `/user/link/${res.body.data.id}`, { token: ada.accessToken, body: { hasPassword: false } });
    expect(off.body.data.hasPassword).toBe(false);
    const [after] = await t.dataSource.query('SELECT password_hash FROM links WHERE id = $1', [res.body.data.id]);
    expect(after.password_hash).toBeNull();
  });

  it('updates partially, answers the changed link, and refuses a slug taken by another link', async () => {
    const a = await create(ada, { url: 'https://example.com/a', slug: 'first', title: 'A' });
    await create(ada, { url: 'https://example.com/b', slug: 'second' });
    const res = await t.request('PUT', `/user/link/${a.body.data.id}`, {
      token: ada.accessToken,
      body: { title: 'New title', url: 'https://example.org/' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: a.body.data.id,
      title: 'New title',
      slug: 'first',
      url: 'https://example.org/',
      updatedAt: expect.any(String),
    });
    const clash = await t.request('PUT', `/user/link/${a.body.data.id}`, { token: ada.accessToken, body: { slug: 'second' } });
    expect(clash.status).toBe(400);
    expect(clash.body.meta.errors[0].name).toBe('slug');
  });

  it('lists newest first with q over title, slug and url, and paging meta', async () => {
    await create(ada, { url: 'https://shop.example.com/x', title: 'Summer' });
    await create(ada, { url: 'https://example.com/y', slug: 'summer-sale' });
    await create(ada, { url: 'https://example.com/z', title: 'Other' });
    const all = await t.request('GET', '/user/link', { token: ada.accessToken });
    expect(all.body.meta).toEqual({ total: 3, start: 0, limit: 10, nextCursor: null });
    expect(all.body.data[0].url).toBe('https://example.com/z');
    const found = await t.request('GET', '/user/link?q=SUMMER', { token: ada.accessToken });
    expect(found.body.data.map((l: { url: string }) => l.url)).toEqual(['https://example.com/y', 'https://shop.example.com/x']);
    const page = await t.request('GET', '/user/link?start=1&limit=1', { token: ada.accessToken });
    expect(page.body.meta).toEqual({ total: 3, start: 1, limit: 1, nextCursor: expect.any(String) });
    expect(page.body.data).toHaveLength(1);
    expect((await t.request('GET', '/user/link?limit=101', { token: ada.accessToken })).status).toBe(400);
  });

  it('never shows or changes another user’s link: 404', async () => {
    const mine = await create(ada, { url: 'https://example.com/mine' });
    for (const [method, body] of [['GET'], ['PUT', { title: 'x' }], ['DELETE']] as const) {
      const res = await t.request(method, `/user/link/${mine.body.data.id}`, { token: bob.accessToken, ...(body ? { body } : {}) });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect((await t.request('GET', '/user/link', { token: bob.accessToken })).body.data).toEqual([]);
  });

  it('deletes permanently, answering deletedAt', async () => {
    const res = await create(ada, { url: 'https://example.com' });
    const deleted = await t.request('DELETE', `/user/link/${res.body.data.id}`, { token: ada.accessToken });
    expect(deleted.body.data).toEqual({ deletedAt: expect.stringMatching(/Z$/) });
    expect((await t.request('GET', `/user/link/${res.body.data.id}`, { token: ada.accessToken })).status).toBe(404);
  });

  it('stops at the plan quota with 403 QUOTA_EXCEEDED, and lets only one of parallel creations take the last slot', async () => {
    for (let i = 0; i < 4; i++) expect((await create(ada, { url: `https://example.com/${i}` })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => create(ada, { url: `https://example.com/p${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403, 403]);
    const refused = results.find((r) => r.status === 403);
    expect(refused?.body).toMatchObject({ code: 'QUOTA_EXCEEDED', meta: { limit: { resource: 'links', used: 5, limit: 5 } } });
    const limits = await t.request('GET', '/user/me/limits', { token: ada.accessToken });
    expect(limits.body.data.links).toEqual({ used: 5, limit: 5 });
  });

  it('erases the links and tags of a deleted account in the same transaction', async () => {
    const carol = await createAccount(t);
    const tag = await t.request('POST', '/user/tag', { token: carol.accessToken, body: { name: 'mine' } });
    await create(carol, { url: 'https://example.com', tags: [tag.body.data.id] });
    expect((await t.request('DELETE', '/user/me', { token: carol.accessToken })).status).toBe(200);
    const [links] = await t.dataSource.query('SELECT count(*)::int AS n FROM links WHERE owner_id = $1', [carol.id]);
    const [tags] = await t.dataSource.query('SELECT count(*)::int AS n FROM tags WHERE owner_id = $1', [carol.id]);
    expect([links.n, tags.n]).toEqual([0, 0]);
  });

  describe('tags', () => {
    afterEach(async () => {
      for (const account of [ada, bob]) {
        const list = await t.request('GET', '/user/tag?limit=100', { token: account.accessToken });
        for (const tag of list.body.data) await t.request('DELETE', `/user/tag/${tag.id}`, { token: account.accessToken });
      }
    });

    it('creates, lists, favours, counts links, renames, and deletes tags', async () => {
      const news = await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'News', isFavorite: true } });
      expect(news.body.data).toEqual({
        id: expect.any(String),
        name: 'News',
        isFavorite: true,
        createdAt: expect.any(String),
        linkCount: 0,
      });
      const plain = await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'plain' } });
      expect(plain.body.data.isFavorite).toBe(false);
      const link = await create(ada, { url: 'https://example.com', tags: [news.body.data.id] });
      expect(link.body.data.tags).toEqual([{ id: news.body.data.id, name: 'News' }]);

      const favorites = await t.request('GET', '/user/tag/favorite', { token: ada.accessToken });
      expect(favorites.body).not.toHaveProperty('meta');
      expect(favorites.body.data).toEqual([{ ...news.body.data, linkCount: 1 }]);
      const list = await t.request('GET', '/user/tag?q=new', { token: ada.accessToken });
      expect(list.body.meta).toEqual({ total: 1, start: 0, limit: 10, nextCursor: null });

      const renamed = await t.request('PUT', `/user/tag/${news.body.data.id}`, {
        token: ada.accessToken,
        body: { name: 'Headlines', isFavorite: false },
      });
      expect(renamed.body.data).toMatchObject({ name: 'Headlines', isFavorite: false, linkCount: 1 });
      expect((await t.request('DELETE', `/user/tag/${news.body.data.id}`, { token: ada.accessToken })).status).toBe(200);
      expect((await t.request('GET', `/user/link/${link.body.data.id}`, { token: ada.accessToken })).body.data.tags).toEqual([]);
    });

    it('refuses a duplicate name in any case, a bad name, another user’s tag, and the quota', async () => {
      await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'News' } });
      const dup = await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'NEWS' } });
      expect(dup.status).toBe(400);
      expect(dup.body.meta.errors[0].name).toBe('name');
      expect((await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: '' } })).status).toBe(400);
      expect((await t.request('POST', '/user/tag', { token: bob.accessToken, body: { name: 'News' } })).status).toBe(200);
      const bobs = await t.request('GET', '/user/tag', { token: bob.accessToken });
      expect((await t.request('PUT', `/user/tag/${bobs.body.data[0].id}`, { token: ada.accessToken, body: { name: 'x' } })).status).toBe(
        404,
      );
      expect((await create(ada, { url: 'https://example.com', tags: [bobs.body.data[0].id] })).status).toBe(400);
      await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'two' } });
      await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'three' } });
      const over = await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'four' } });
      expect(over.status).toBe(403);
      expect(over.body.code).toBe('QUOTA_EXCEEDED');
    });
  });
});
