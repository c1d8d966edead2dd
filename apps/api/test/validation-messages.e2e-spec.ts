import { createAccount, TestAccount } from './support/identity';
import { TestApp, useTestApp } from './support/test-app';

/**
 * What a refused request is told: a missing field is "required" (not "too long"), a wrong type names the
 * type, a date in the wrong format names the expected one, and every failing field is listed at once. A
 * misleading message sends a newcomer hunting for the wrong fault; one error per round costs a round per field.
 */
describe('validation messages say what is wrong', () => {
  let t: TestApp;
  let ada: TestAccount;
  useTestApp(async (app) => {
    t = app;
    ada = await createAccount(app);
  });

  const errorsOf = (res: { status: number; body: any }) => {
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    return res.body.meta.errors as { name: string; error: string }[];
  };

  it(
    'calls a missing field required, on tags, domains, tokens and the token ' +
      'endpoint (it read "must be shorter than or equal to 64 characters")',
    async () => {
      expect(errorsOf(await t.request('POST', '/user/tag', { token: ada.accessToken, body: {} }))).toEqual([
        { name: 'name', error: 'name is required' },
      ]);
      expect(errorsOf(await t.request('POST', '/user/domain', { token: ada.accessToken, body: {} }))).toEqual([
        { name: 'name', error: 'name is required' },
      ]);
      expect(errorsOf(await t.request('POST', '/user/tokens', { token: ada.accessToken, body: {} }))).toEqual(
        expect.arrayContaining([
          { name: 'name', error: 'name is required' },
          { name: 'scopes', error: 'scopes is required' },
        ]),
      );
      expect(errorsOf(await t.request('POST', '/oauth/token', { body: {} }))).toContainEqual({
        name: 'grant_type',
        error: 'grant_type is required',
      });
    },
  );

  it('names the expected type of a value of the wrong type before any rule about its size', async () => {
    expect(errorsOf(await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 42 } }))).toEqual([
      { name: 'name', error: 'name must be a string' },
    ]);
    expect(errorsOf(await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: null } }))).toEqual([
      { name: 'name', error: 'name must be a string' },
    ]);
    expect(errorsOf(await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'ok', isFavorite: 'yes' } }))).toEqual([
      { name: 'isFavorite', error: 'isFavorite must be true or false' },
    ]);
    expect(
      errorsOf(await t.request('POST', '/user/tokens', { token: ada.accessToken, body: { name: 'x', scopes: 'links:read' } })),
    ).toEqual([{ name: 'scopes', error: 'scopes must be an array' }]);
    // A value that is a string but too long is still told so.
    expect(errorsOf(await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'x'.repeat(65) } }))).toEqual([
      { name: 'name', error: 'name must be shorter than or equal to 64 characters' },
    ]);
  });

  it('lists every failing field of a link at once, those of the request shape and those of the link rules alike', async () => {
    const shape = errorsOf(await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 5, slug: false, title: [] } }));
    expect(shape.map((e) => e.name).sort()).toEqual(['slug', 'title', 'url']);
    const rules = errorsOf(
      await t.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'not a url', slug: 'no spaces here', hasPassword: true, password: 'short' },
      }),
    );
    expect(rules.map((e) => e.name)).toEqual(['url', 'slug', 'password']);
    const created = await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://example.com/' } });
    expect(created.status).toBe(200);
    const changed = errorsOf(
      await t.request('PUT', `/user/link/${created.body.data.id}`, {
        token: ada.accessToken,
        body: { url: 'ftp://example.com/', slug: 'bad slug', hasPassword: false, password: 'a password' },
      }),
    );
    expect(changed.map((e) => e.name)).toEqual(['url', 'slug', 'password']);
  });

  // Issue 27: the DTO checked types and the domain the rest, so a type error on one field hid the domain's errors on
  // the others ({"url": "not a url", "slug": "!!bad!!", "tags": "x"} was told of tags only).
  it('reports every failing field of a link at once: a wrong type on one does not hide a bad URL or slug on others', async () => {
    const res = await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'not a url', slug: '!!bad!!', tags: 'x' } });
    expect(errorsOf(res)).toEqual(
      expect.arrayContaining([
        { name: 'tags', error: 'tags must be an array' },
        { name: 'url', error: 'url must be an absolute URL' },
        { name: 'slug', error: 'slug must be 1 to 64 characters of letters, digits, "-" and "_"' },
      ]),
    );
    expect(errorsOf(res)).toHaveLength(3);
    const link = await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://example.com/' } });
    const changed = errorsOf(
      await t.request('PUT', `/user/link/${link.body.data.id}`, {
        token: ada.accessToken,
        body: { url: 'ftp://example.com/', slug: 'admin', status: 'on', expiresAt: '2030-02-30T00:00:00Z', utm: { source: ' ' } },
      }),
    );
    expect(changed.map((e) => e.name).sort()).toEqual(['expiresAt', 'slug', 'status', 'url', 'utm.source']);
    // A bulk item is checked as one body is.
    const bulk = await t.request('POST', '/user/link/bulk', {
      token: ada.accessToken,
      body: { links: [{ url: 'not a url', slug: '!!bad!!', tags: 'x' }] },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data[0].errors.map((e: { name: string }) => e.name).sort()).toEqual(['slug', 'tags', 'url']);
  });

  it('reports the domain rules of every other route alongside a type error, each naming its field', async () => {
    const as = { token: ada.accessToken };
    const link = await t.request('POST', '/user/link', { ...as, body: { url: 'https://example.com/' } });
    const tag = await t.request('POST', '/user/tag', { ...as, body: { name: 'kept' } });
    const cases: [string, string, unknown, string[]][] = [
      ['POST', '/user/tag', { name: '   ', isFavorite: 'yes' }, ['isFavorite', 'name']],
      ['PUT', `/user/tag/${tag.body.data.id}`, { name: ' ', isFavorite: 1 }, ['isFavorite', 'name']],
      ['POST', '/user/domain', { name: 'no_such host', extra: true }, ['extra', 'name']],
      ['POST', '/user/tokens', { name: '  ', scopes: ['links:read', 'nope'], description: 5 }, ['description', 'name', 'scopes']],
      ['POST', '/user/tokens', { name: 'ci', scopes: [], expiresAt: 5 }, ['expiresAt', 'scopes']],
      [
        'POST',
        '/user/oauth-clients',
        { name: ' ', scopes: ['nope'], redirectUris: ['http://example.com/cb'], description: 5 },
        ['description', 'name', 'redirectUris.0', 'scopes'],
      ],
      ['POST', '/user/webhooks', { url: 'ftp://hooks.example.com/', events: 'link.created', linkIds: [] }, ['events', 'linkIds', 'url']],
      ['PUT', '/user/me/email', { email: 'not an address', currentPassword: 5 }, ['currentPassword', 'email']],
      ['PUT', '/user/me/password', { currentPassword: 5, newPassword: 'short' }, ['currentPassword', 'newPassword']],
      [
        'PUT',
        `/user/link/${link.body.data.id}`,
        { expiredUrl: 'mailto:a@example.com', targets: { device: { ios: 'nope' } }, maxVisits: 0 },
        ['expiredUrl', 'maxVisits', 'targets.device.ios'],
      ],
    ];
    for (const [method, path, body, fields] of cases) {
      const res = await t.request(method, path, { ...as, body });
      expect([method, path, res.status, res.body.code, (res.body.meta?.errors ?? []).map((e: { name: string }) => e.name).sort()]).toEqual([
        method,
        path,
        400,
        'VALIDATION_ERROR',
        fields,
      ]);
    }
  });

  // Date.parse reads 2030-02-30 as March 2: a link would have expired two days late, a token lived two days longer.
  it('refuses an expiry on a day that does not exist, for links and tokens alike', async () => {
    const link = errorsOf(
      await t.request('POST', '/user/link', {
        token: ada.accessToken,
        body: { url: 'https://example.com/', expiresAt: '2030-02-30T00:00:00Z' },
      }),
    );
    expect(link.map((e) => e.name)).toEqual(['expiresAt']);
    const pat = errorsOf(
      await t.request('POST', '/user/tokens', {
        token: ada.accessToken,
        body: { name: 'ci', scopes: ['links:read'], expiresAt: '2030-02-30T00:00:00Z' },
      }),
    );
    expect(pat.map((e) => e.name)).toEqual(['expiresAt']);
    expect(
      (
        await t.request('POST', '/user/link', {
          token: ada.accessToken,
          body: { url: 'https://example.com/', expiresAt: '2028-02-29T00:00:00Z' },
        })
      ).status,
    ).toBe(200);
  });

  it('tells a date in the wrong format the format it expects (an ISO date-time read "longer than 10 characters")', async () => {
    const res = await t.request('GET', '/user/stats?startDate=2026-01-01T00:00:00Z&endDate=2026-01-31T00:00:00.000Z', {
      token: ada.accessToken,
    });
    expect(errorsOf(res)).toEqual([
      { name: 'startDate', error: 'startDate must be a date as YYYY-MM-DD' },
      { name: 'endDate', error: 'endDate must be a date as YYYY-MM-DD' },
    ]);
    expect(errorsOf(await t.request('GET', '/user/stats?endDate=2026-01-31', { token: ada.accessToken }))).toEqual([
      { name: 'startDate', error: 'startDate is required' },
    ]);
    expect((await t.request('GET', '/user/stats?startDate=2026-01-01&endDate=2026-01-31', { token: ada.accessToken })).status).toBe(200);
  });
});
