import { LinkListAnswer, LinkListQuery, LinkLists } from '@lnk/links/domain';
import { PageRequest } from '@lnk/shared/kernel';
import { CachedLinkLists, LinkListCacheOptions, linkListKey } from './cached-link-lists';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);

/** An answer that says what it was read as: `text` stands for its rows, and weighs its length. */
type Answer = LinkListAnswer & { text: string };
const answerOf = (text: string): Answer => ({
  page: { items: [], total: 0, start: 0, limit: 20 } as unknown as LinkListAnswer['page'],
  domainNames: new Map(),
  text,
});
const queryOf = (start: number, q?: string): LinkListQuery => ({ q, page: PageRequest.of(start, 20), filter: {} });

/** The lists' reads: answers the rows as they are now (`rows`), or waits when told to (`hold`). */
class Reads extends LinkLists {
  rows = new Map<string, string>();
  count = 0;
  held: (() => void)[] = [];
  holding = false;
  async listOf(ownerId: string, query: LinkListQuery): Promise<LinkListAnswer> {
    this.count++;
    const text = this.rows.get(`${ownerId}/${query.page.start}`) ?? 'none';
    if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
    return answerOf(text);
  }
}

function setUp(options: Partial<LinkListCacheOptions> = {}) {
  let now = 1_000;
  const reads = new Reads();
  const cache = new CachedLinkLists(
    reads,
    { maxEntries: 100, maxBytes: 1_000_000, maxAgeMs: 1_000, ...options },
    (v) => (v as Answer).text.length,
    () => now,
  );
  const list = async (owner: string, start = 0) => ((await cache.listOf(owner, queryOf(start))) as Answer).text;
  const store = (owner: string, start: number, text: string) => reads.rows.set(`${owner}/${start}`, text);
  /** Lists the owner's first page while `meanwhile` runs (a change, a clear), the read ending after it. */
  const listWhile = async (owner: string, meanwhile: () => void) => {
    reads.holding = true;
    const reading = list(owner);
    await new Promise((resolve) => setImmediate(resolve));
    meanwhile();
    reads.holding = false;
    reads.held.splice(0).forEach((release) => release());
    return reading;
  };
  return { cache, reads, list, listWhile, store, advance: (ms: number) => (now += ms) };
}

describe('CachedLinkLists', () => {
  // The key holds the owner: the same query of another account is another entry, never A's page.
  it('answers an owner only with what was kept for that owner', async () => {
    const { list, store, reads } = setUp();
    store(A, 0, "A's page");
    store(B, 0, "B's page");
    expect(await list(A)).toBe("A's page");
    expect(await list(B)).toBe("B's page");
    expect(await list(A)).toBe("A's page");
    expect(reads.count).toBe(2);
  });

  it("forgets every answer of an owner whose links changed, and only that owner's", async () => {
    const { cache, list, store, reads } = setUp();
    store(A, 0, 'a1');
    store(A, 20, 'a2');
    store(B, 0, 'b1');
    for (const [owner, start] of [
      [A, 0],
      [A, 20],
      [B, 0],
    ] as const)
      await list(owner, start);
    store(A, 0, 'a1 changed');
    store(B, 0, 'b1 changed behind the app');
    cache.linksChanged(A);
    expect(cache.size).toMatchObject({ entries: 1, owners: 1 });
    expect(await list(A, 0)).toBe('a1 changed');
    expect(await list(B, 0)).toBe('b1'); // still the kept answer
    expect(reads.count).toBe(4);
  });

  // A read that got the rows before a change committed, and ends after its report, would be served until its max age.
  it('does not keep an answer whose read a change of the same owner overtook, nor one a clear overtook', async () => {
    const { cache, list, listWhile, store } = setUp();
    store(A, 0, 'read before the change');
    expect(await listWhile(A, () => cache.linksChanged(A))).toBe('read before the change');
    store(A, 0, 'read after');
    expect(await list(A)).toBe('read after');

    store(B, 0, 'read before the resync');
    await listWhile(B, () => cache.clear());
    store(B, 0, 'read after the resync');
    expect(await list(B)).toBe('read after the resync');
  });

  // One owner's change must not keep another owner's read out (it would ask the database again for nothing).
  it("keeps a read that another owner's change came during", async () => {
    const { cache, list, listWhile, store, reads } = setUp();
    store(B, 0, 'b1');
    await listWhile(B, () => cache.linksChanged(A));
    expect(await list(B)).toBe('b1');
    expect(reads.count).toBe(1);
  });

  it('gives an answer for its max age only (the lag its click totals may add)', async () => {
    const { list, store, reads, advance } = setUp({ maxAgeMs: 1_000 });
    store(A, 0, 'page');
    await list(A);
    advance(1_000);
    await list(A);
    expect(reads.count).toBe(1);
    advance(1);
    await list(A);
    expect(reads.count).toBe(2);
  });

  // Bounded: a flood of distinct queries cannot grow the cache (nor its owner index) past its max.
  it('holds at most maxEntries answers, the least recently used going first, and indexes only those', async () => {
    const { cache, list, reads } = setUp({ maxEntries: 3 });
    for (let i = 0; i < 3; i++) await list(A, i);
    await list(A, 0);
    for (let i = 3; i < 300; i++) await list(i % 2 ? A : B, i);
    expect(cache.size).toMatchObject({ entries: 3, owners: 2 });
    const count = reads.count;
    await list(B, 298);
    expect(reads.count).toBe(count);
    await list(A, 1);
    expect(reads.count).toBe(count + 1);
  });

  it('holds at most maxBytes of answers, and keeps none heavier than a quarter of it', async () => {
    const { cache, list, store, reads } = setUp({ maxBytes: 1_000 });
    for (let i = 0; i < 100; i++) store(A, i, 'x'.repeat(100));
    for (let i = 0; i < 100; i++) await list(A, i);
    expect(cache.size.bytes).toBeLessThanOrEqual(1_000);
    expect(cache.size.entries).toBe(10);
    store(B, 0, 'y'.repeat(251));
    await list(B);
    const count = reads.count;
    await list(B);
    expect(reads.count).toBe(count + 1);
    expect(cache.size).toMatchObject({ entries: 10, owners: 1 });
  });

  it('keeps nothing with maxEntries 0', async () => {
    const { list, reads } = setUp({ maxEntries: 0 });
    await list(A);
    await list(A);
    expect(reads.count).toBe(2);
  });

  // The key is the whole question: a different page, cursor or search is a different answer.
  it('keys a query by page, cursor and lowercased search, and keeps no expiry-filtered one', () => {
    const page = PageRequest.of(0, 20);
    expect(linkListKey({ q: 'Launch', page, filter: {} })).toBe(linkListKey({ q: 'launch', page, filter: {} }));
    expect(linkListKey({ q: undefined, page, filter: {} })).not.toBe(linkListKey({ q: 'launch', page, filter: {} }));
    expect(linkListKey({ q: undefined, page: PageRequest.of(20, 20), filter: {} })).not.toBe(
      linkListKey({ q: undefined, page, filter: {} }),
    );
    expect(linkListKey({ q: undefined, page, filter: { expired: false } })).toBeNull();
  });

  // Issue 31: an answer of one sort, tag or favourites filter is never given for another (with the old key,
  // sort=oldest was answered the newest-first list); newest spelt out is the default's entry.
  it('keys a query by its sort, tag and favourites filter too, and a title position unambiguously', () => {
    const page = PageRequest.of(0, 20);
    const keyOf = (filter: LinkListQuery['filter'], at = page) => linkListKey({ q: undefined, page: at, filter });
    const keys = [
      keyOf({}),
      keyOf({ sort: 'oldest' }),
      keyOf({ sort: 'title' }),
      keyOf({ tagId: A }),
      keyOf({ tagId: B }),
      keyOf({ favorite: true }),
      keyOf({ tagId: A, favorite: true }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(keyOf({ sort: 'newest' })).toBe(keyOf({}));
    expect(keyOf({ sort: 'title' }, PageRequest.after(['a,b', A], 20, 20))).not.toBe(
      keyOf({ sort: 'title' }, PageRequest.after(['a', `b,${A}`], 20, 20)),
    );
  });
});
