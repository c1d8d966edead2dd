import { createAccount, type TestAccount } from './support/identity';
import { useTwoInstances, within } from './support/instances';
import type { TestApp } from './support/test-app';

describe('ETags, If-None-Match and If-Match (two instances, one database)', () => {
  // One short domain for both, as instances of one service have: a link's answer (its shortUrl) is then the same on each.
  const instances = useTwoInstances({ SHORT_BASE_URL: 'https://lnk.test', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_WORKER: 'false' });
  let a: TestApp;
  let b: TestApp;
  beforeAll(() => ({ a, b } = instances()));

  const newLink = async (account: TestAccount, title = 'first') =>
    (await a.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/etag', title } })).body.data
      .id as string;
  const read = async (app: TestApp, account: TestAccount, id: string, headers: Record<string, string> = {}) =>
    app.request('GET', `/user/link/${id}`, { token: account.accessToken, headers });
  const etagOf = (res: { headers: Headers }) => {
    const etag = res.headers.get('etag');
    if (etag === null) throw new Error('the answer carries no ETag');
    return etag;
  };
  const edit = (app: TestApp, account: TestAccount, id: string, body: object, ifMatch?: string) =>
    app.request('PUT', `/user/link/${id}`, {
      token: account.accessToken,
      body,
      headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch },
    });

  it('answers a strong ETag on a link, and 304 with no body to a GET that names it, on either instance', async () => {
    const account = await createAccount(a);
    const id = await newLink(account);
    const first = await read(a, account, id);
    const etag = etagOf(first);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const cached = await read(b, account, id, { 'If-None-Match': etag });
    expect([cached.status, cached.text, cached.headers.get('etag')]).toEqual([304, '', etag]);
    expect((await read(a, account, id, { 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
    expect((await read(a, account, id, { 'If-None-Match': '"other"' })).status).toBe(200);
  });

  // A cached copy must never be declared current after a write, whichever instance wrote it.
  it('changes the ETag on every write, including a write on the other instance, so an old one gets the new body', async () => {
    const account = await createAccount(a);
    const id = await newLink(account);
    const before = etagOf(await read(a, account, id));
    const updated = await edit(b, account, id, { title: 'changed on b' });
    expect(updated.headers.get('etag')).not.toBe(before);
    const after = await read(a, account, id, { 'If-None-Match': before });
    expect([after.status, after.body.data.title, after.headers.get('etag')]).toEqual([200, 'changed on b', updated.headers.get('etag')]);
    // A retag in bulk is a write of the link too.
    await a.request('POST', '/user/link/bulk/tags', { token: account.accessToken, body: { ids: [id], add: ['red'] } });
    expect((await read(b, account, id, { 'If-None-Match': etagOf(updated) })).status).toBe(200);
  });

  // The lost update: two clients read one version and both write; the second must be refused, not overwrite the first.
  it('refuses the second of two edits made from one version with 412, carrying the current ETag, and changes nothing', async () => {
    const account = await createAccount(a);
    const id = await newLink(account);
    const seen = etagOf(await read(a, account, id));
    const one = await edit(a, account, id, { title: 'client one' }, seen);
    expect(one.status).toBe(200);
    const two = await edit(b, account, id, { description: 'client two' }, seen);
    expect([two.status, two.body.code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect(two.headers.get('etag')).toBe(one.headers.get('etag'));
    const now = (await read(b, account, id)).body.data;
    expect([now.title, now.description]).toEqual(['client one', '']);
    // Read again, the second client's change goes through.
    expect((await edit(b, account, id, { description: 'client two' }, etagOf(two))).status).toBe(200);
  });

  // The check and the write are one: racing writers from one version on two instances, exactly one wins, every time.
  it('lets exactly one of two racing edits from one version through, on two instances', async () => {
    const account = await createAccount(a);
    for (let round = 0; round < 5; round++) {
      const id = await newLink(account, `round ${round}`);
      const seen = etagOf(await read(a, account, id));
      const [x, y] = await Promise.all([
        edit(a, account, id, { title: `a${round}` }, seen),
        edit(b, account, id, { title: `b${round}` }, seen),
      ]);
      expect([x.status, y.status].sort()).toEqual([200, 412]);
      const winner = x.status === 200 ? `a${round}` : `b${round}`;
      expect((await read(a, account, id)).body.data.title).toBe(winner);
    }
  });

  it('takes If-Match: * for any current version, and refuses a weak tag (If-Match compares strongly)', async () => {
    const account = await createAccount(a);
    const id = await newLink(account);
    const etag = etagOf(await read(a, account, id));
    expect((await edit(a, account, id, { title: 'weak' }, `W/${etag}`)).status).toBe(412);
    expect((await edit(a, account, id, { title: 'any' }, '*')).status).toBe(200);
    expect((await edit(a, account, id, { title: 'none' })).status).toBe(200);
  });

  // Another account's link: its ETag is not a way to probe it.
  it("answers 404, not 412, to If-Match on another account's link", async () => {
    const [ada, eve] = [await createAccount(a), await createAccount(a)];
    const id = await newLink(ada);
    const etag = etagOf(await read(a, ada, id));
    const res = await edit(a, eve, id, { title: 'taken over' }, etag);
    expect(res.status).toBe(404);
    expect((await read(a, ada, id)).body.data.title).toBe('first');
  });

  // The lost update on a webhook: two clients turn it off and change its events from one version.
  it('refuses the second of two webhook edits made from one version with 412, and 304s its current ETag', async () => {
    const account = await createAccount(a);
    const hook = (
      await a.request('POST', '/user/webhooks', {
        token: account.accessToken,
        body: { url: 'http://127.0.0.1:9/hook', events: ['link.created'] },
      })
    ).body.data;
    const path = `/user/webhooks/${hook.id}`;
    const seen = etagOf(await a.request('GET', path, { token: account.accessToken }));
    expect((await b.request('GET', path, { token: account.accessToken, headers: { 'If-None-Match': seen } })).status).toBe(304);
    const one = await a.request('PUT', path, { token: account.accessToken, body: { isActive: false }, headers: { 'If-Match': seen } });
    expect(one.status).toBe(200);
    const two = await b.request('PUT', path, {
      token: account.accessToken,
      body: { events: ['link.deleted'] },
      headers: { 'If-Match': seen },
    });
    expect([two.status, two.body.code, etagOf(two)]).toEqual([412, 'PRECONDITION_FAILED', etagOf(one)]);
    const now = (await b.request('GET', path, { token: account.accessToken })).body.data;
    expect([now.isActive, now.events]).toEqual([false, ['link.created']]);
    const [x, y] = await Promise.all([
      a.request('PUT', path, { token: account.accessToken, body: { description: 'x' }, headers: { 'If-Match': etagOf(one) } }),
      b.request('PUT', path, { token: account.accessToken, body: { description: 'y' }, headers: { 'If-Match': etagOf(one) } }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 412]);
  });

  // The lost update on a tag: a tag has no GET, so its ETag comes from its PUT's answer (or a 412's).
  it('refuses the second of two tag edits made from one version with 412 carrying the current ETag, and changes nothing', async () => {
    const account = await createAccount(a);
    const tag = (await a.request('POST', '/user/tag', { token: account.accessToken, body: { name: 'blue' } })).body.data;
    const path = `/user/tag/${tag.id}`;
    const put = (app: TestApp, body: object, ifMatch?: string) =>
      app.request('PUT', path, { token: account.accessToken, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
    const listed = async () =>
      (await a.request('GET', '/user/tag', { token: account.accessToken })).body.data.find((t: { id: string }) => t.id === tag.id);
    // A first If-Match of * takes any version and answers the tag's ETag.
    const first = await put(a, {}, '*');
    const seen = etagOf(first);
    expect([first.status, seen]).toEqual([200, expect.stringMatching(/^"[A-Za-z0-9_-]{27}"$/)]);
    const one = await put(a, { name: 'navy' }, seen);
    expect(one.status).toBe(200);
    expect(etagOf(one)).not.toBe(seen);
    const two = await put(b, { isFavorite: true }, seen);
    expect([two.status, two.body.code, etagOf(two)]).toEqual([412, 'PRECONDITION_FAILED', etagOf(one)]);
    expect(await listed()).toMatchObject({ name: 'navy', isFavorite: false });
    // A weak tag never matches; the current one, read again from the 412, goes through.
    expect((await put(b, { isFavorite: true }, `W/${etagOf(two)}`)).status).toBe(412);
    expect((await put(b, { isFavorite: true }, etagOf(two))).status).toBe(200);
    expect(await listed()).toMatchObject({ name: 'navy', isFavorite: true });
  });

  // The check and the write are one statement: racing tag edits from one version, exactly one wins.
  it('lets exactly one of two racing tag edits from one version through, on two instances', async () => {
    const account = await createAccount(a);
    for (let round = 0; round < 5; round++) {
      const tag = (await a.request('POST', '/user/tag', { token: account.accessToken, body: { name: `race ${round}` } })).body.data;
      const path = `/user/tag/${tag.id}`;
      const seen = etagOf(await a.request('PUT', path, { token: account.accessToken, body: {} }));
      const [x, y] = await Promise.all(
        [a, b].map((app, i) =>
          app.request('PUT', path, { token: account.accessToken, body: { name: `race ${round} ${i}` }, headers: { 'If-Match': seen } }),
        ),
      );
      expect([x.status, y.status].sort()).toEqual([200, 412]);
      const listed = (await a.request('GET', `/user/tag?q=${encodeURIComponent(`race ${round}`)}`, { token: account.accessToken })).body
        .data;
      expect(listed.map((t: { name: string }) => t.name)).toEqual([`race ${round} ${x.status === 200 ? 0 : 1}`]);
    }
  });

  // Another account's tag: an If-Match is no way to probe or change it.
  it("answers 404, not 412, to If-Match on another account's tag, and changes nothing", async () => {
    const [ada, eve] = [await createAccount(a), await createAccount(a)];
    const tag = (await a.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'mine' } })).body.data;
    const seen = etagOf(await a.request('PUT', `/user/tag/${tag.id}`, { token: ada.accessToken, body: {} }));
    for (const ifMatch of [seen, '"stale"', '*']) {
      const res = await a.request('PUT', `/user/tag/${tag.id}`, {
        token: eve.accessToken,
        body: { name: 'taken' },
        headers: { 'If-Match': ifMatch },
      });
      expect([res.status, res.headers.get('etag')]).toEqual([404, null]);
    }
    expect((await a.request('GET', '/user/tag', { token: ada.accessToken })).body.data.map((t: { name: string }) => t.name)).toEqual([
      'mine',
    ]);
  });

  // The lost update on an OAuth client: one client turns it off, another widens its scopes from the same version.
  it('refuses the second of two OAuth client edits made from one version with 412, and lets one of two racing edits through', async () => {
    const account = await createAccount(a);
    const client = (
      await a.request('POST', '/user/oauth-clients', { token: account.accessToken, body: { name: 'app', scopes: ['links:read'] } })
    ).body.data;
    const path = `/user/oauth-clients/${client.id}`;
    const put = (app: TestApp, body: object, ifMatch: string) =>
      app.request('PUT', path, { token: account.accessToken, body, headers: { 'If-Match': ifMatch } });
    const seen = etagOf(await a.request('GET', path, { token: account.accessToken }));
    const one = await put(a, { isActive: false }, seen);
    expect(one.status).toBe(200);
    const two = await put(b, { scopes: ['links:read', 'links:write'] }, seen);
    expect([two.status, two.body.code, etagOf(two)]).toEqual([412, 'PRECONDITION_FAILED', etagOf(one)]);
    const now = await b.request('GET', path, { token: account.accessToken, headers: { 'If-None-Match': etagOf(one) } });
    expect([now.status, now.headers.get('etag')]).toEqual([304, etagOf(one)]);
    expect((await a.request('GET', path, { token: account.accessToken })).body.data).toMatchObject({
      isActive: false,
      scopes: ['links:read'],
    });
    const [x, y] = await Promise.all([put(a, { name: 'x' }, etagOf(one)), put(b, { name: 'y' }, etagOf(one))]);
    expect([x.status, y.status].sort()).toEqual([200, 412]);
    expect((await a.request('GET', path, { token: account.accessToken })).body.data.name).toBe(x.status === 200 ? 'x' : 'y');
    // Another account's client: 404 whatever If-Match says, never a 412 that tells it exists.
    const eve = await createAccount(a);
    expect((await b.request('PUT', path, { token: eve.accessToken, body: { name: 'taken' }, headers: { 'If-Match': '*' } })).status).toBe(
      404,
    );
  });

  it('tags the account, an OAuth client and a token alike, and answers 304 to their current ETag', async () => {
    const account = await createAccount(a);
    const client = (
      await a.request('POST', '/user/oauth-clients', { token: account.accessToken, body: { name: 'app', scopes: ['links:read'] } })
    ).body.data;
    const pat = (await a.request('POST', '/user/tokens', { token: account.accessToken, body: { name: 'ci', scopes: ['links:read'] } })).body
      .data;
    for (const path of ['/user/me', `/user/oauth-clients/${client.id}`, `/user/tokens/${pat.id}`]) {
      const first = await a.request('GET', path, { token: account.accessToken });
      const etag = etagOf(first);
      expect(etag).toMatch(/^"/);
      expect((await b.request('GET', path, { token: account.accessToken, headers: { 'If-None-Match': etag } })).status).toBe(304);
    }
    // The account's ETag follows its changes made on the other instance.
    const me = etagOf(await a.request('GET', '/user/me', { token: account.accessToken }));
    expect(
      (await a.request('PUT', '/user/me/email', { token: account.accessToken, body: { email: `moved-${Date.now()}@example.com` } })).status,
    ).toBe(200);
    expect(
      await within(
        2000,
        async () => (await b.request('GET', '/user/me', { token: account.accessToken, headers: { 'If-None-Match': me } })).status === 200,
      ),
    ).toBe(true);
  });
});
