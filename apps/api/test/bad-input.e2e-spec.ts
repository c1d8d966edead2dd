import { getMetadataStorage } from 'class-validator';
import fc from 'fast-check';
import { registeredRoutes, RegisteredRoute } from '../src/openapi/openapi';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Property-based bad input: for every route with a body or a query, generated garbage (wrong types,
 * missing and unknown fields, nulls, arrays for objects, huge and unicode strings) never gets a 5xx, always
 * an error envelope when refused, and a refused request leaves the database exactly as it was.
 */

const RUNS = Number(process.env['BAD_INPUT_RUNS'] ?? 25);

/** Every row of every table, as one digest per table. */
async function fingerprint(t: TestApp): Promise<string> {
  const tables = (await t.dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ` +
      `AND table_type = 'BASE TABLE' AND table_name <> 'migrations' ORDER BY 1`,
  )) as { name: string }[];
  const parts = await Promise.all(
    tables.map(async ({ name }) => {
      const [row] = (await t.dataSource.query(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS digest FROM "${name}" x`,
      )) as { n: number; digest: string }[];
      return `${name}:${row.n}:${row.digest}`;
    }),
  );
  return parts.join('\n');
}

const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constant(''),
  fc.constant('x'.repeat(5000)),
);
const wrongValue = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 5 }), scalar, { maxKeys: 3 }));

/** A body built around the DTO's own field names, with wrong values, plus whole bodies of the wrong shape. */
function bodies(fields: string[]) {
  const aroundFields = fields.length
    ? fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 })), wrongValue, { maxKeys: fields.length + 2 })
    : fc.dictionary(fc.string({ maxLength: 8 }), wrongValue, { maxKeys: 3 });
  return fc.oneof(aroundFields, fc.array(wrongValue, { maxLength: 3 }), scalar);
}

function queries(fields: string[]) {
  const value = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 10 }),
    fc.integer().map(String),
    fc.constant('-1'),
    fc.constant('1e309'),
    fc.constant('x'.repeat(3000)),
  );
  return fc.dictionary(fc.oneof(fc.constantFrom(...(fields.length ? fields : ['q'])), fc.string({ maxLength: 6 })), value, { maxKeys: 4 });
}

/** The DTO's validated properties, from class-validator's metadata. */
const fieldsOf = (route: RegisteredRoute, kind: 'body' | 'query'): string[] => {
  const type = route[kind];
  if (!type) return [];
  return [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type, '', true, false)
        .map((m) => m.propertyName),
    ),
  ];
};

describe('bad input never breaks the API (fast-check)', () => {
  let t: TestApp;
  let ada: TestAccount;
  /** Whose token is older than a fresh sign-in: DELETE /user/me with an empty body would otherwise delete ada. */
  let leaver: TestAccount;
  let own: Record<string, string>;
  let routes: RegisteredRoute[];

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        PLANS: JSON.stringify([
          { id: 'free', name: 'Free', price: 0, maxDomains: 1000, maxLinks: 100000, maxTags: 100000 },
          { id: 'pro', name: 'Pro', price: 9, maxDomains: 1, maxLinks: 1, maxTags: 1 },
        ]),
      },
    });
    ada = await createAccount(t);
    leaver = await createAccount(t);
    await t.dataSource.query(`UPDATE oauth_tokens SET auth_time = auth_time - interval '1 hour' WHERE user_id = $1`, [leaver.id]);
    const link = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://example.com/', slug: 'fuzz-target' },
    });
    const tag = await t.request('POST', '/user/tag', { token: ada.accessToken, body: { name: 'fuzz-tag' } });
    own = { link: link.body.data.id, tag: tag.body.data.id };
    routes = registeredRoutes(t.app).filter((r) => r.body || r.query);
  });
  afterAll(() => t?.close());

  const pathOf = (route: RegisteredRoute) =>
    route.path.replace(':id', route.path.startsWith('/user/tag') ? own['tag'] : own['link']).replace(':sessionId', 'cs_sandbox_fuzz');

  it('finds the routes that take input', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /user/link',
        'PUT /user/link/:id',
        'GET /user/link',
        'POST /oauth/token',
        'GET /user/stats',
        'POST /user/subscription/checkout',
      ]),
    );
  });

  it(
    'answers generated bodies and queries of every route with a 2xx/3xx or a 4xx ' +
      'envelope, never a 5xx, and leaves the database alone when it refuses',
    async () => {
      for (const route of routes) {
        const body = fieldsOf(route, 'body');
        const query = fieldsOf(route, 'query');
        await fc.assert(
          fc.asyncProperty(
            route.body ? bodies(body) : fc.constant(undefined),
            route.query ? queries(query) : fc.constant({}),
            async (payload, params) => {
              const before = await fingerprint(t);
              const search = new URLSearchParams(params as Record<string, string>).toString();
              const res = await t.request(route.method, `${pathOf(route)}${search ? `?${search}` : ''}`, {
                token: route.method === 'DELETE' && route.path === '/user/me' ? leaver.accessToken : ada.accessToken,
                ...(payload !== undefined ? { raw: { body: JSON.stringify(payload), contentType: 'application/json' } } : {}),
              });
              expect([route.method, route.path, res.status]).toEqual([route.method, route.path, expect.any(Number)]);
              expect(res.status).toBeLessThan(500);
              if (res.status >= 400) {
                if (typeof res.body === 'object')
                  expect(res.body).toMatchObject({ status: res.status, code: expect.any(String), message: expect.any(String) });
                expect(await fingerprint(t)).toBe(before);
              }
            },
          ),
          { numRuns: RUNS },
        );
      }
    },
    300_000,
  );

  it('refuses null for a field that does not take null, and changes nothing (fast-check found isFavorite: null as a 500)', async () => {
    const before = await fingerprint(t);
    const tag = await t.request('PUT', `/user/tag/${own['tag']}`, { token: ada.accessToken, body: { isFavorite: null } });
    expect([tag.status, tag.body.meta.errors[0].name]).toEqual([400, 'isFavorite']);
    const link = await t.request('PUT', `/user/link/${own['link']}`, { token: ada.accessToken, body: { title: null, status: null } });
    expect([link.status, link.body.meta.errors.map((e: { name: string }) => e.name).sort()]).toEqual([400, ['status', 'title']]);
    expect(await fingerprint(t)).toBe(before);
    // A field that does take null still does: no custom domain.
    expect((await t.request('PUT', `/user/link/${own['link']}`, { token: ada.accessToken, body: { domainId: null } })).status).toBe(200);
  });

  // PostgreSQL stores no NUL in text: a NUL anywhere reached the database and failed there as a 500.
  it('refuses a NUL character in any string of a body, a query or a path with VALIDATION_ERROR naming the field', async () => {
    const before = await fingerprint(t);
    const refusedOn = async (res: { status: number; body: any }) => {
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_ERROR']);
      return res.body.meta.errors.map((e: { name: string }) => e.name);
    };
    const as = { token: ada.accessToken };
    expect(
      await refusedOn(await t.request('POST', '/user/link', { ...as, body: { url: 'https://example.com/', title: 'a\u0000b' } })),
    ).toEqual(['title']);
    expect(
      await refusedOn(
        await t.request('POST', '/user/link', { ...as, body: { url: 'https://example.com/', tags: [own['tag'], '\u0000'] } }),
      ),
    ).toEqual(['tags.1']);
    expect(await refusedOn(await t.request('PUT', `/user/tag/${own['tag']}`, { ...as, body: { name: '\u0000' } }))).toEqual(['name']);
    expect(await refusedOn(await t.request('GET', '/user/link?q=%00', as))).toEqual(['q']);
    expect(await refusedOn(await t.request('GET', '/user/domain?q=x%00y', as))).toEqual(['q']);
    expect(await refusedOn(await t.request('GET', `/user/link/${own['link']}%00`, as))).toEqual(['id']);
    expect(await refusedOn(await t.request('DELETE', `/user/tag/%00`, as))).toEqual(['id']);
    expect(await fingerprint(t)).toBe(before);
  });

  it('refuses a NUL character in an OAuth form body as invalid_request', async () => {
    const before = await fingerprint(t);
    const res = await t.request('POST', '/oauth/token', {
      raw: { body: 'grant_type=password&client_id=x&username=a%00b&password=p', contentType: 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
    expect(await fingerprint(t)).toBe(before);
  });

  // An offset past what the database takes (1e21 is written 1e+21) reached it as a 500.
  it.each(['/user/link', '/user/tag', '/user/domain', '/user/tokens', '/user/oauth-clients'])(
    'refuses ?start=1e21 on %s with VALIDATION_ERROR on start',
    async (path) => {
      for (const start of ['1e21', '1000000001', String(Number.MAX_SAFE_INTEGER + 2)]) {
        const res = await t.request('GET', `${path}?start=${start}`, { token: ada.accessToken });
        expect([start, res.status, res.body.code, res.body.meta?.errors]).toEqual([
          start,
          400,
          'VALIDATION_ERROR',
          [{ name: 'start', error: 'start must not be greater than 1000000000' }],
        ]);
      }
      expect((await t.request('GET', `${path}?start=1000000000`, { token: ada.accessToken })).status).toBe(200);
    },
  );

  it('refuses malformed JSON, a wrong content type and deep nesting with 400, a body over 1 MB with 413', async () => {
    const send = (body: string, contentType = 'application/json') =>
      t.request('POST', '/user/link', { token: ada.accessToken, raw: { body, contentType } });
    const before = await fingerprint(t);
    for (const broken of ['{"url":', '{"url": "https://a.example/"', 'nul', '{"url": "x"}}', '\u0000']) {
      const res = await send(broken);
      expect([broken, res.status, res.body.code]).toEqual([broken, 400, 'VALIDATION_ERROR']);
    }
    expect((await send('url=https://a.example/', 'text/plain')).status).toBe(400);
    expect((await send('url=https://a.example/', 'application/x-www-form-urlencoded')).status).toBe(400);
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    expect((await send(deep)).status).toBe(400);
    const huge = await send(JSON.stringify({ url: 'https://a.example/', title: 'x'.repeat(1_100_000) }));
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(await fingerprint(t)).toBe(before);
  });
});
