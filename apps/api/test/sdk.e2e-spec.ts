import {
  type Client,
  createLink,
  createTag,
  deleteLink,
  type ErrorEnvelope,
  getAccount,
  getLink,
  getStats,
  getStatsByDimension,
  grantTokens,
  listFavoriteTags,
  listLinks,
  listTags,
  updateLink,
} from '@lnk/sdk';
import { createFirstPartyClient, identityOf, type TestClient } from './support/identity';
import { sdkClient } from './support/sdk';
import { freePort, startTestApp, type TestApp } from './support/test-app';
import { asBrowser } from './support/visitor';

/** What an SDK call gives back: the success envelope as `data`, or the error envelope as `error`. */
type Outcome<T, E> = ({ data: T; error: undefined } | { data: undefined; error: E }) & { response: Response };

/** The success envelope of a call that must succeed; anything else fails the test with what the server said. */
function succeeded<T, E>(outcome: Outcome<T, E>): T {
  if (outcome.data === undefined) {
    throw new Error(`expected a success, got ${outcome.response.status}: ${JSON.stringify(outcome.error)}`);
  }
  return outcome.data;
}

/** The error envelope of a call that must fail. */
function failed<T, E>(outcome: Outcome<T, E>): E {
  if (outcome.error === undefined) {
    throw new Error(`expected an error, got ${outcome.response.status}: ${JSON.stringify(outcome.data)}`);
  }
  return outcome.error;
}

// Issue 30: the generated client (libs/sdk) driving the running API, every answer checked against the document.
describe('@lnk/sdk against the running API', () => {
  let t: TestApp;
  let signInClient: TestClient;
  const email = 'sdk-user@example.com';
  const password = 'correct horse battery';
  let accessToken: string | undefined;
  let api: Client;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await startTestApp();
    const user = await identityOf(t).registerUser.execute({ email, password, name: 'SDK User' });
    signInClient = await createFirstPartyClient(t, user.id);
    // The token is asked before each request: none until the sign-in below gives one.
    api = sdkClient(t, { token: () => accessToken });
  });
  afterAll(() => t?.close());

  it('signs in with the password grant and reads the account with the token it got', async () => {
    const { clientId, clientSecret } = signInClient;
    const body = { grant_type: 'password' as const, client_id: clientId, client_secret: clientSecret, username: email, password };
    const answer = succeeded(await grantTokens({ client: api, body }));
    // The operation also documents the RFC 6749 body a form-encoded request gets; a JSON request gets the envelope.
    if (!('code' in answer)) throw new Error('a JSON sign-in answers the envelope');
    expect(answer).toMatchObject({ status: 200, code: 'OK', data: { token_type: 'Bearer', user: { email } } });
    accessToken = answer.data.access_token;

    const me = succeeded(await getAccount({ client: api }));
    expect(me.data).toMatchObject({ email, name: 'SDK User' });
    // The document's second server: the same routes under /v1.
    const versioned = sdkClient(t, { baseUrl: `${t.baseUrl}/v1`, token: accessToken });
    expect(succeeded(await getAccount({ client: versioned })).data.id).toBe(me.data.id);
  });

  it('creates a link with options and a tag, gets it, changes it, and lists tags', async () => {
    const tag = succeeded(await createTag({ client: api, body: { name: 'sdk', isFavorite: true } })).data;
    expect(tag).toMatchObject({ name: 'sdk', isFavorite: true, linkCount: 0 });

    const options = { slug: 'sdk-first', title: 'First', redirectType: 307 as const, maxVisits: 10, utm: { source: 'sdk' } };
    const created = succeeded(await createLink({ client: api, body: { url: 'https://example.com/sdk', ...options, tags: [tag.id] } }));
    expect(created).toMatchObject({ status: 200, code: 'OK' });
    expect(created.data).toMatchObject({ ...options, tags: [{ id: tag.id, name: 'sdk' }], clicks: 0 });
    expect(created.data.shortUrl).toBe(`${t.baseUrl}/sdk-first`);

    const fetched = succeeded(await getLink({ client: api, path: { id: created.data.id } }));
    expect(fetched.data).toEqual(created.data);

    const change = { title: 'Renamed', url: 'https://example.com/sdk-2' };
    const changed = succeeded(await updateLink({ client: api, path: { id: created.data.id }, body: change }));
    expect(changed.data).toMatchObject({ ...change, id: created.data.id, slug: 'sdk-first', redirectType: 307 });

    const tags = succeeded(await listTags({ client: api, query: { q: 'sdk' } }));
    expect(tags.data).toEqual([expect.objectContaining({ id: tag.id, linkCount: 1 })]);
    expect(tags.meta).toEqual({ total: 1, start: 0, limit: 10, nextCursor: null });
    const favorites = succeeded(await listFavoriteTags({ client: api }));
    expect(favorites.data.map((favorite) => favorite.id)).toEqual([tag.id]);
  });

  it('lists links page by page with start and limit, meta.total saying how many there are', async () => {
    for (const slug of ['sdk-second', 'sdk-third']) {
      succeeded(await createLink({ client: api, body: { url: `https://example.com/${slug}`, slug } }));
    }

    const first = succeeded(await listLinks({ client: api, query: { start: 0, limit: 2 } }));
    const second = succeeded(await listLinks({ client: api, query: { start: 2, limit: 2 } }));
    expect(first.meta).toEqual({ total: 3, start: 0, limit: 2, nextCursor: expect.any(String) });
    expect(second.meta).toEqual({ total: 3, start: 2, limit: 2, nextCursor: null });
    // Newest first, each link on one page only.
    expect([...first.data, ...second.data].map((link) => link.slug)).toEqual(['sdk-third', 'sdk-second', 'sdk-first']);
  });

  it('walks every page of links with cursor and meta.nextCursor until there is none', async () => {
    const slugs: string[] = [];
    const starts: number[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = succeeded(await listLinks({ client: api, query: { limit: 1, ...(cursor === undefined ? {} : { cursor }) } }));
      slugs.push(...page.data.map((link) => link.slug));
      starts.push(page.meta.start);
      if (page.meta.nextCursor === null) break;
      cursor = page.meta.nextCursor;
    }
    // One link a page, newest first, each once; meta.start counts what the walk answered before.
    expect(slugs).toEqual(['sdk-third', 'sdk-second', 'sdk-first']);
    expect(starts).toEqual([0, 1, 2]);
    // A cursor is bound to its query: the same one with a search is refused, as a typed error.
    const refused = failed(await listLinks({ client: api, query: { q: 'sdk', cursor } }));
    expect(refused).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
  });

  it('counts a visit of the short URL in the statistics of today, in the records and by dimension', async () => {
    expect((await fetch(`${t.baseUrl}/sdk-first`, { redirect: 'manual', headers: asBrowser() })).status).toBe(307);
    await t.app.get('CONTEXTS').analytics.clicks.flush();

    const period = { startDate: today, endDate: today };
    const records = succeeded(await getStats({ client: api, query: period }));
    expect(records.data).toEqual([expect.objectContaining({ linkName: 'Renamed', utmSource: 'sdk', visits: 1 })]);
    const triggers = succeeded(await getStatsByDimension({ client: api, path: { dimension: 'triggers' }, query: period }));
    expect(triggers.data).toEqual([{ value: 'link', visits: 1 }]);
  });

  it('returns a refused request as a typed error envelope carrying its code and the failing fields', async () => {
    const outcome = await createLink({ client: api, body: { url: 'https://example.com/again', slug: 'sdk-first' } });
    const error: ErrorEnvelope = failed(outcome);
    expect(outcome.response.status).toBe(400);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.meta?.errors).toEqual([{ name: 'slug', error: expect.any(String) }]);

    const missing = failed(await getLink({ client: api, path: { id: '0'.repeat(24) } }));
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('deletes a link, which is then not found', async () => {
    const [link] = succeeded(await listLinks({ client: api, query: { q: 'sdk-second' } })).data;
    const deleted = succeeded(await deleteLink({ client: api, path: { id: link.id } }));
    expect(Date.parse(deleted.data.deletedAt)).not.toBeNaN();
    expect(failed(await getLink({ client: api, path: { id: link.id } })).code).toBe('NOT_FOUND');
  });

  it('throws, rather than returning an error envelope, when the request gets no answer at all', async () => {
    const nobody = await freePort();
    const unanswered = sdkClient(t, { baseUrl: `http://127.0.0.1:${nobody}`, token: 'tkn_unused' });
    await expect(getAccount({ client: unanswered })).rejects.toHaveProperty('name', 'TypeError');
  });
});
