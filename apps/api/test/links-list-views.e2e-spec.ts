import { createAccount, createPat, type TestAccount } from './support/identity';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Issue 31 over real HTTP: the links list's tag filter, sort and favourites (GET /user/link?tag=&sort=&favorite=),
 * a link's isFavorite (POST and PUT bodies), and the account's name (PUT /user/me/name).
 */
describe('links list views, favourites and the account name', () => {
  let t: TestApp;
  let ada: TestAccount;
  let bob: TestAccount;

  beforeAll(async () => {
    t = await startTestApp();
    [ada, bob] = [await createAccount(t), await createAccount(t)];
  });
  afterAll(() => t?.close());

  const send = (account: TestAccount | string, method: 'GET' | 'POST' | 'PUT', path: string, body?: Record<string, unknown>) =>
    t.request(method, path, { token: typeof account === 'string' ? account : account.accessToken, ...(body ? { body } : {}) });
  async function made(
    account: TestAccount,
    path: string,
    body: Record<string, unknown>,
  ): Promise<{ id: string } & Record<string, unknown>> {
    const res = await send(account, 'POST', path, body);
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
    return res.body.data;
  }
  const titles = async (account: TestAccount, query: string): Promise<string[]> => {
    const res = await send(account, 'GET', `/user/link?limit=100&${query}`);
    expect(res.status).toBe(200);
    return res.body.data.map((l: { title: string }) => l.title);
  };
  const refusal = async (account: TestAccount | string, method: 'GET' | 'POST' | 'PUT', path: string, body?: Record<string, unknown>) => {
    const res = await send(account, method, path, body);
    return { status: res.status, code: res.body.code, fields: res.body.meta?.errors?.map((e: { name: string }) => e.name) };
  };

  it('filters by tag, lists favourites, and sorts newest, oldest or by title', async () => {
    const news = await made(ada, '/user/tag', { name: 'views-news' });
    await made(ada, '/user/link', { url: 'https://example.com/1', title: 'banana', tags: [news.id] });
    await made(ada, '/user/link', { url: 'https://example.com/2', title: 'Apple', isFavorite: true });
    await made(ada, '/user/link', { url: 'https://example.com/3', title: 'cherry', tags: [news.id], isFavorite: true });
    expect(await titles(ada, '')).toEqual(['cherry', 'Apple', 'banana']);
    expect(await titles(ada, 'sort=newest')).toEqual(['cherry', 'Apple', 'banana']);
    expect(await titles(ada, 'sort=oldest')).toEqual(['banana', 'Apple', 'cherry']);
    expect(await titles(ada, 'sort=title')).toEqual(['Apple', 'banana', 'cherry']);
    expect(await titles(ada, `tag=${news.id}`)).toEqual(['cherry', 'banana']);
    expect(await titles(ada, 'favorite=true&sort=title')).toEqual(['Apple', 'cherry']);
    expect(await titles(ada, `favorite=true&tag=${news.id}`)).toEqual(['cherry']);
    expect(await titles(ada, 'favorite=false')).toEqual(['cherry', 'Apple', 'banana']);
    const page = await send(ada, 'GET', `/user/link?tag=${news.id}&limit=1`);
    expect(page.body.meta).toMatchObject({ total: 2, start: 0, limit: 1 });
  });

  // A list item always says isFavorite; the single link says it only when true, as the link options are shown.
  it('sets and clears isFavorite by POST and PUT, shown in the list always and in the link only when true', async () => {
    const plain = await made(ada, '/user/link', { url: 'https://example.com/plain', title: 'plain' });
    expect(plain).not.toHaveProperty('isFavorite');
    const put = await send(ada, 'PUT', `/user/link/${plain.id}`, { isFavorite: true });
    expect(put.status).toBe(200);
    expect(put.body.data.isFavorite).toBe(true);
    expect((await send(ada, 'GET', `/user/link/${plain.id}`)).body.data.isFavorite).toBe(true);
    const listed = (await send(ada, 'GET', '/user/link?favorite=true&limit=100')).body.data.map(
      (l: { id: string; isFavorite: boolean }) => [l.id, l.isFavorite],
    );
    expect(listed).toContainEqual([plain.id, true]);
    expect((await send(ada, 'PUT', `/user/link/${plain.id}`, { isFavorite: false })).body.data).not.toHaveProperty('isFavorite');
    const item = (await send(ada, 'GET', '/user/link?limit=100')).body.data.find((l: { id: string }) => l.id === plain.id);
    expect(item.isFavorite).toBe(false);
  });

  // Defends: reading another account's links through its tag id. Another account's tag matches nothing
  // (an empty list, as an unknown or deleted tag does): the answer says no more than "none of yours".
  it("answers an empty list for another account's tag, never its links", async () => {
    const bobs = await made(bob, '/user/tag', { name: 'secret' });
    await made(bob, '/user/link', { url: 'https://example.com/bob', title: 'bob only', tags: [bobs.id], isFavorite: true });
    const res = await send(ada, 'GET', `/user/link?tag=${bobs.id}`);
    expect({ status: res.status, data: res.body.data, total: res.body.meta.total }).toEqual({ status: 200, data: [], total: 0 });
    expect(await titles(ada, 'favorite=true')).not.toContain('bob only');
    expect(await titles(bob, `tag=${bobs.id}`)).toEqual(['bob only']);
  });

  // Defends: bad input reaching the database (a non-id tag cast, an unknown ORDER BY) as a 500.
  it('refuses bad sort, tag and favorite values with 400 naming the field', async () => {
    expect(await refusal(ada, 'GET', '/user/link?sort=clicks')).toEqual({ status: 400, code: 'VALIDATION_ERROR', fields: ['sort'] });
    expect(await refusal(ada, 'GET', '/user/link?sort=title%3B%20DROP%20TABLE%20links')).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      fields: ['sort'],
    });
    expect(await refusal(ada, 'GET', '/user/link?tag=not-an-id')).toEqual({ status: 400, code: 'VALIDATION_ERROR', fields: ['tag'] });
    expect(await refusal(ada, 'GET', `/user/link?tag=${'a'.repeat(25)}`)).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      fields: ['tag'],
    });
    expect(await refusal(ada, 'GET', '/user/link?favorite=yes')).toEqual({ status: 400, code: 'VALIDATION_ERROR', fields: ['favorite'] });
    expect(await refusal(ada, 'GET', '/user/link?sort=title&sort=oldest')).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(await refusal(ada, 'POST', '/user/link', { url: 'https://example.com/x', isFavorite: 'yes' })).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      fields: ['isFavorite'],
    });
  });

  // A title of 200 characters that take 3 bytes each: the longest position a title cursor holds still walks.
  it('walks the title sort by cursor past a link whose title is as long as a title may be', async () => {
    const account = await createAccount(t);
    const long = '語'.repeat(200);
    for (const title of [long, `${long.slice(0, 199)}"`, 'zz'])
      await made(account, '/user/link', { url: 'https://example.com/long', title });
    const first = await send(account, 'GET', '/user/link?sort=title&limit=1');
    const second = await send(account, 'GET', `/user/link?sort=title&limit=1&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expect(second.status).toBe(200);
    const third = await send(account, 'GET', `/user/link?sort=title&limit=1&cursor=${encodeURIComponent(second.body.meta.nextCursor)}`);
    expect([first, second, third].map((r) => r.body.data[0].title)).toEqual(['zz', `${long.slice(0, 199)}"`, long]);
  });

  it('renames the account: trimmed, shown by GET /user/me', async () => {
    const account = await createAccount(t);
    const res = await send(account, 'PUT', '/user/me/name', { name: '  Ada Lovelace  ' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: account.id, name: 'Ada Lovelace', updatedAt: expect.any(String) });
    expect((await send(account, 'GET', '/user/me')).body.data.name).toBe('Ada Lovelace');
  });

  it('refuses a blank, overlong or missing name with 400 on name', async () => {
    for (const body of [{ name: '   ' }, { name: 'x'.repeat(101) }, {}, { name: 42 }]) {
      expect(await refusal(ada, 'PUT', '/user/me/name', body)).toEqual({ status: 400, code: 'VALIDATION_ERROR', fields: ['name'] });
    }
    // As at sign-up: the length counts once trimmed.
    expect((await send(ada, 'PUT', '/user/me/name', { name: ` ${'x'.repeat(100)} ` })).status).toBe(200);
  });

  // Defends: a narrow token doing more than its scopes say (a read-only integration that marks links or renames the account).
  it('refuses isFavorite and a rename to tokens without the write scope', async () => {
    const link = await made(ada, '/user/link', { url: 'https://example.com/narrow', title: 'narrow' });
    const linksRead = await createPat(t, ada, ['links:read']);
    const userRead = await createPat(t, ada, ['user:read']);
    expect(await refusal(linksRead.token, 'PUT', `/user/link/${link.id}`, { isFavorite: true })).toMatchObject({ status: 403 });
    expect(await refusal(linksRead.token, 'POST', '/user/link', { url: 'https://example.com/fav', isFavorite: true })).toMatchObject({
      status: 403,
    });
    expect(await refusal(userRead.token, 'PUT', '/user/me/name', { name: 'Mallory' })).toMatchObject({ status: 403 });
    expect((await send(ada, 'GET', `/user/link/${link.id}`)).body.data).not.toHaveProperty('isFavorite');
    expect((await send(ada, 'GET', '/user/me')).body.data.name).not.toBe('Mallory');
    // The narrow read token still reads the filtered list.
    expect((await send(linksRead.token, 'GET', '/user/link?favorite=true&sort=title')).status).toBe(200);
  });
});
