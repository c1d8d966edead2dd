import { randomBytes } from 'node:crypto';
import { createAccount, type TestAccount } from './support/identity';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Issue 30: every list walks by cursor (meta.nextCursor) exactly once while items are created and deleted
 * meanwhile; a cursor is bound to its list, its account and its query, and refused altered.
 */

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const today = new Date().toISOString().slice(0, 10);

interface Item {
  id: string;
}

/** A list as the walk sees it: its path (with its query), and how to add and remove one of its items. */
interface ListUnderTest {
  name: string;
  path: (account: TestAccount) => string;
  create: (account: TestAccount, n: string) => Promise<string>;
  remove: (account: TestAccount, id: string) => Promise<void>;
  /** Page size: the webhooks list holds ten at most, so it walks in smaller pages. */
  limit?: number;
  stable?: number;
}

describe('cursors of every list', () => {
  let t: TestApp;
  let ada: TestAccount;
  let bob: TestAccount;
  /** Per account, the webhook whose deliveries are walked. */
  const hooks = new Map<string, string>();
  /** Per account, the tag whose favourite links are walked. */
  const walkTags = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
    [ada, bob] = [await createAccount(t), await createAccount(t)];
    for (const account of [ada, bob]) {
      const hook = await t.request('POST', '/user/webhooks', {
        token: account.accessToken,
        body: { url: 'https://127.0.0.1:9/hook', events: ['link.limit_reached'] },
      });
      expect(hook.status).toBe(200);
      hooks.set(account.id, hook.body.data.id);
      walkTags.set(account.id, await created(account, '/user/tag', { name: 'walked' }));
    }
  });
  afterAll(() => t?.close());

  /** A write over HTTP that must succeed; answers the created item's id. */
  async function created(account: TestAccount, path: string, body: Record<string, unknown>): Promise<string> {
    const res = await t.request('POST', path, { token: account.accessToken, body });
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
    return res.body.data.id;
  }
  async function deleted(account: TestAccount, path: string): Promise<void> {
    const res = await t.request('DELETE', path, { token: account.accessToken });
    if (res.status !== 200) throw new Error(`DELETE ${path}: ${res.status} ${res.text}`);
  }

  const LISTS: ListUnderTest[] = [
    {
      name: 'links',
      path: () => '/user/link',
      create: (a, n) => created(a, '/user/link', { url: `https://example.com/${n}`, title: `walk ${n}` }),
      remove: (a, id) => deleted(a, `/user/link/${id}`),
    },
    {
      name: 'links found by a search',
      path: () => '/user/link?q=WALK',
      create: (a, n) => created(a, '/user/link', { url: `https://example.com/${n}`, title: `walk ${n}` }),
      remove: (a, id) => deleted(a, `/user/link/${id}`),
    },
    {
      name: 'links oldest first',
      path: () => '/user/link?sort=oldest',
      create: (a, n) => created(a, '/user/link', { url: `https://example.com/${n}`, title: `walk ${n}` }),
      remove: (a, id) => deleted(a, `/user/link/${id}`),
    },
    {
      // Titles of random letters: new links land anywhere in the title order, before and after the position.
      name: 'links by title',
      path: () => '/user/link?sort=title',
      create: (a, n) => created(a, '/user/link', { url: `https://example.com/${n}`, title: `${hex(2)} walk ${n}` }),
      remove: (a, id) => deleted(a, `/user/link/${id}`),
    },
    {
      name: 'links of a tag, oldest first',
      path: (a) => `/user/link?tag=${walkTags.get(a.id)}&sort=oldest`,
      create: (a, n) => created(a, '/user/link', { url: `https://example.com/${n}`, title: `walk ${n}`, tags: [walkTags.get(a.id)] }),
      remove: (a, id) => deleted(a, `/user/link/${id}`),
    },
    {
      name: 'favourite links of a tag, by title',
      path: (a) => `/user/link?tag=${walkTags.get(a.id)}&favorite=true&sort=title`,
      create: (a, n) =>
        created(a, '/user/link', {
          url: `https://example.com/${n}`,
          title: `${hex(2)} walk ${n}`,
          tags: [walkTags.get(a.id)],
          isFavorite: true,
        }),
      remove: (a, id) => deleted(a, `/user/link/${id}`),
    },
    {
      name: 'tags',
      path: () => '/user/tag',
      create: (a, n) => created(a, '/user/tag', { name: `walk-${n}` }),
      remove: (a, id) => deleted(a, `/user/tag/${id}`),
    },
    {
      name: 'domains',
      path: () => '/user/domain',
      create: (a, n) => created(a, '/user/domain', { name: `walk-${n}.example.com` }),
      remove: (a, id) => deleted(a, `/user/domain/${id}`),
    },
    {
      name: 'personal access tokens',
      path: () => '/user/tokens',
      create: (a, n) => created(a, '/user/tokens', { name: `walk ${n}`, scopes: ['links:read'] }),
      remove: (a, id) => deleted(a, `/user/tokens/${id}`),
    },
    {
      name: 'OAuth clients',
      path: () => '/user/oauth-clients',
      create: (a, n) =>
        created(a, '/user/oauth-clients', { name: `walk ${n}`, scopes: ['links:read'], redirectUris: ['https://example.com/callback'] }),
      remove: (a, id) => deleted(a, `/user/oauth-clients/${id}`),
    },
    {
      name: 'webhooks',
      path: () => '/user/webhooks',
      // Ten webhooks at most per account (one is the deliveries' own): few items, small pages.
      create: (a, n) => created(a, '/user/webhooks', { url: `https://127.0.0.1:9/${n}`, events: ['link.limit_reached'] }),
      remove: (a, id) => deleted(a, `/user/webhooks/${id}`),
      limit: 1,
      stable: 3,
    },
    {
      // No route makes or removes a delivery (events do, a deleted webhook takes its own): written in SQL,
      // created_at spread over an hour so that new ones land between those already walked and those not.
      name: 'webhook deliveries',
      path: (a) => `/user/webhooks/${hooks.get(a.id)}/deliveries`,
      create: async (a, n) => {
        const id = hex(16);
        await t.dataSource.query(
          `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, status, next_attempt_at, created_at)
           VALUES ($1, $2, $3, 'link.limit_reached', '{}', 'delivered', now(), now() - random() * interval '1 hour')`,
          [id, hooks.get(a.id), hex(12)],
        );
        void n;
        return id;
      },
      remove: async (_a, id) => void (await t.dataSource.query('DELETE FROM webhook_deliveries WHERE id = $1', [id])),
    },
    {
      // Rows of the daily statistics, written in SQL as the click writer would (one per link and day), with
      // random link names: new rows land anywhere in the order (day, link name, UTM, id).
      name: 'statistics',
      path: () => `/user/stats?startDate=${today}&endDate=${today}`,
      create: async (a, n) => {
        const id = hex(12);
        await t.dataSource.query(
          `INSERT INTO link_daily_stats (id, date, link_id, owner_id, link_name, domain_name, utm_source, utm_medium, utm_campaign, visits)
           VALUES ($1, $2::date, $3, $4, $5, '', '', '', '', 1)`,
          [id, today, hex(12), a.id, `${hex(3)} ${n}`],
        );
        return id;
      },
      remove: async (_a, id) => void (await t.dataSource.query('DELETE FROM link_daily_stats WHERE id = $1', [id])),
    },
  ];

  /** Walks `path` by cursor, `between` run after each page; answers the ids in the order the pages gave them. */
  async function walk(
    account: TestAccount,
    path: string,
    limit: number,
    between: (seen: string[]) => Promise<void> = async () => undefined,
  ): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    const pageAt = (after: string | null) =>
      `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${after === null ? '' : `&cursor=${encodeURIComponent(after)}`}`;
    do {
      const page = pageAt(cursor);
      const res = await t.request<{ data: Item[]; meta: { nextCursor: string | null } }>('GET', page, { token: account.accessToken });
      if (res.status !== 200) throw new Error(`GET ${page}: ${res.status} ${res.text}`);
      expect(res.body.meta).toMatchObject({ start: seen.length, limit });
      seen.push(...(res.body.data as Item[]).map((i) => i.id));
      cursor = res.body.meta.nextCursor;
      await between(seen);
      // A walk that never ends is a failure, not a stall.
      if (++pages > 1000) throw new Error(`${path}: no last page after 1000 pages`);
    } while (cursor !== null);
    return seen;
  }

  // Defends: a client (an integration, an agent) that pages through a list while it or others write to it:
  // with offsets, a deletion before the page skips an item and a creation repeats one.
  it.each(LISTS.map((l) => [l.name, l] as const))(
    'walks %s by cursor, each item that stayed exactly once, while others are created and deleted',
    async (_name, list) => {
      const limit = list.limit ?? 3;
      const stableCount = list.stable ?? 8;
      // Interleaved: every other item is to be deleted during the walk, some before the walk reaches them, some after.
      const stable: string[] = [];
      const doomed: string[] = [];
      for (let i = 0; i < stableCount; i++) {
        stable.push(await list.create(ada, `s${i}-${hex(2)}`));
        doomed.push(await list.create(ada, `d${i}-${hex(2)}`));
      }
      // Another account's items, written during the walk too: never one of them in ada's pages.
      const bobs: string[] = [await list.create(bob, `b0-${hex(2)}`)];

      let walking = true;
      const churned: string[] = [];
      // The concurrent writer: creates an item, then deletes the oldest it made, until the walk ends; a doomed
      // item is deleted on every other turn.
      const writer = (async () => {
        let n = 0;
        while (walking) {
          churned.push(await list.create(ada, `c${n++}-${hex(2)}`));
          if (churned.length > 2) await list.remove(ada, churned.shift() as string);
          if (n % 2 === 0 && doomed.length) await list.remove(ada, doomed.pop() as string);
          if (n % 3 === 0) bobs.push(await list.create(bob, `b${n}-${hex(2)}`));
        }
      })();
      let seen: string[];
      try {
        // After each page, up to two items already walked are deleted: more than the writer adds at most, so
        // an offset walk would skip items not yet seen.
        seen = await walk(ada, list.path(ada), limit, async (sofar) => {
          for (let i = 0; i < 2; i++) {
            const walked = doomed.findIndex((id) => sofar.includes(id));
            if (walked >= 0) await list.remove(ada, doomed.splice(walked, 1)[0]);
          }
        });
      } finally {
        walking = false;
        await writer;
      }

      const counts = new Map<string, number>();
      for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
      expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
      expect(stable.filter((id) => counts.get(id) !== 1)).toEqual([]);
      expect(seen.filter((id) => bobs.includes(id))).toEqual([]);
      // Something did change during the walk, or the test proved nothing.
      expect(churned.length + (stableCount - doomed.length)).toBeGreaterThan(2);
    },
  );

  /** A cursor of ada's links (a first page of two, more following). */
  async function adasCursor(query = ''): Promise<string> {
    for (let i = 0; i < 3; i++) await created(ada, '/user/link', { url: `https://example.com/c${i}`, title: `cursor ${i}` });
    const res = await t.request('GET', `/user/link?limit=2${query}`, { token: ada.accessToken });
    expect(typeof res.body.meta.nextCursor).toBe('string');
    return res.body.meta.nextCursor;
  }

  const refused = async (account: TestAccount, path: string) => {
    const res = await t.request('GET', path, { token: account.accessToken });
    return { status: res.status, code: res.body.code, fields: res.body.meta?.errors?.map((e: { name: string }) => e.name) };
  };

  // Defends: an account reading another's list through a cursor it got hold of (a shared log, a leaked URL).
  it("refuses another account's cursor with INVALID_CURSOR", async () => {
    const cursor = encodeURIComponent(await adasCursor());
    expect(await refused(bob, `/user/link?cursor=${cursor}`)).toEqual({ status: 400, code: 'INVALID_CURSOR', fields: undefined });
  });

  // Defends: a cursor replayed on another list or with another search, whose position means nothing there.
  it('refuses a cursor with another query or on another list', async () => {
    const cursor = encodeURIComponent(await adasCursor('&q=cursor'));
    expect(await refused(ada, `/user/link?q=other&cursor=${cursor}`)).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    expect(await refused(ada, `/user/link?cursor=${cursor}`)).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    expect(await refused(ada, `/user/link?expired=false&q=cursor&cursor=${cursor}`)).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    expect(await refused(ada, `/user/tag?q=cursor&cursor=${cursor}`)).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    // Every sort and filter of issue 31 binds it too: a position of one order means nothing in another.
    for (const other of ['sort=oldest', 'sort=title', 'favorite=true', `tag=${walkTags.get(ada.id)}`]) {
      expect(await refused(ada, `/user/link?q=cursor&${other}&cursor=${cursor}`)).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    }
    const byTitle = encodeURIComponent(await adasCursor('&sort=title'));
    expect(await refused(ada, `/user/link?cursor=${byTitle}`)).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    expect(await refused(ada, `/user/link?sort=oldest&cursor=${byTitle}`)).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    // sort=newest is the default spelt out: the same list, the cursor is taken.
    expect((await t.request('GET', `/user/link?sort=newest&q=cursor&cursor=${cursor}`, { token: ada.accessToken })).status).toBe(200);
    // The same search spelt otherwise is the same query (searches ignore case): the cursor is taken.
    expect((await t.request('GET', `/user/link?q=CURSOR&cursor=${cursor}`, { token: ada.accessToken })).status).toBe(200);
  });

  // Defends: a client forging a position (an id of its choosing, a huge offset) or sending garbage to the parser.
  it('refuses an altered cursor and garbage with INVALID_CURSOR, an oversized one with VALIDATION_ERROR', async () => {
    const cursor = await adasCursor();
    const [position, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify([2, '0'.repeat(24)])).toString('base64url');
    for (const bad of [`${forged}.${signature}`, `${position}.${signature.split('').reverse().join('')}`, position, '%00', 'a.b.c']) {
      expect(await refused(ada, `/user/link?cursor=${encodeURIComponent(bad)}`)).toMatchObject({ status: 400, code: 'INVALID_CURSOR' });
    }
    expect(await refused(ada, `/user/link?cursor=${'a'.repeat(1600)}`)).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      fields: ['cursor'],
    });
  });

  it('refuses cursor and start together with VALIDATION_ERROR on start', async () => {
    const cursor = encodeURIComponent(await adasCursor());
    expect(await refused(ada, `/user/link?start=0&cursor=${cursor}`)).toEqual({ status: 400, code: 'VALIDATION_ERROR', fields: ['start'] });
  });

  it('answers nextCursor on an offset page too, and null on the last page', async () => {
    const first = await t.request('GET', '/user/link?start=0&limit=1', { token: ada.accessToken });
    expect(typeof first.body.meta.nextCursor).toBe('string');
    const next = await t.request('GET', `/user/link?limit=1&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`, {
      token: ada.accessToken,
    });
    const second = await t.request('GET', '/user/link?start=1&limit=1', { token: ada.accessToken });
    expect(next.body.data).toEqual(second.body.data);
    const total = first.body.meta.total;
    const last = await t.request('GET', `/user/link?start=${total - 1}&limit=1`, { token: ada.accessToken });
    expect(last.body.meta).toEqual({ total, start: total - 1, limit: 1, nextCursor: null });
  });
});
