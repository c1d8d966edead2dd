import { LinkListCache } from './link-list-cache';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);

function setUp(options: Partial<{ maxEntries: number; maxBytes: number; maxAgeMs: number }> = {}) {
  let now = 1_000;
  const cache = new LinkListCache<{ text: string }>({ maxEntries: 100, maxBytes: 1_000_000, maxAgeMs: 1_000, ...options }, (v) => v.text.length, () => now);
  const put = (owner: string, query: string, text: string) => cache.set(owner, query, cache.guardOf(owner), { text });
  return { cache, put, advance: (ms: number) => (now += ms) };
}

describe('LinkListCache', () => {
  // The key holds the owner: the same query of another account is another entry, never A's page.
  it('answers an owner only with what was kept for that owner', () => {
    const { cache, put } = setUp();
    put(A, '0:20:', "A's page");
    expect(cache.get(A, '0:20:')).toEqual({ text: "A's page" });
    expect(cache.get(B, '0:20:')).toBeUndefined();
    put(B, '0:20:', "B's page");
    expect(cache.get(A, '0:20:')?.text).toBe("A's page");
    expect(cache.get(B, '0:20:')?.text).toBe("B's page");
  });

  it("forgets every answer of an owner whose links changed, and only that owner's", () => {
    const { cache, put } = setUp();
    put(A, '0:20:', 'a1');
    put(A, '20:20:q=launch', 'a2');
    put(B, '0:20:', 'b1');
    cache.linksChanged(A);
    expect(cache.get(A, '0:20:')).toBeUndefined();
    expect(cache.get(A, '20:20:q=launch')).toBeUndefined();
    expect(cache.get(B, '0:20:')?.text).toBe('b1');
    expect(cache.size).toMatchObject({ entries: 1, owners: 1 });
  });

  // A load that read the rows before a change committed, and ends after its report, would be served until its max age.
  it('does not keep an answer whose load a change of the same owner overtook, nor one a clear overtook', () => {
    const { cache } = setUp();
    const guard = cache.guardOf(A);
    cache.linksChanged(A);
    cache.set(A, '0:20:', guard, { text: 'read before the change' });
    expect(cache.get(A, '0:20:')).toBeUndefined();
    const before = cache.guardOf(B);
    cache.clear();
    cache.set(B, '0:20:', before, { text: 'read before the resync' });
    expect(cache.get(B, '0:20:')).toBeUndefined();
    cache.set(B, '0:20:', cache.guardOf(B), { text: 'read after' });
    expect(cache.get(B, '0:20:')?.text).toBe('read after');
  });

  it('gives an answer for its max age only (the lag its click totals may add)', () => {
    const { cache, put, advance } = setUp({ maxAgeMs: 1_000 });
    put(A, '0:20:', 'page');
    advance(999);
    expect(cache.get(A, '0:20:')?.text).toBe('page');
    advance(1);
    expect(cache.get(A, '0:20:')).toBeUndefined();
    expect(cache.size.entries).toBe(0);
  });

  it('holds at most maxEntries answers, the least recently used going first', () => {
    const { cache, put } = setUp({ maxEntries: 3 });
    for (let i = 0; i < 3; i++) put(A, `${i}:20:`, `p${i}`);
    cache.get(A, '0:20:');
    for (let i = 3; i < 1_000; i++) put(i % 2 ? A : B, `${i}:20:`, `p${i}`);
    expect(cache.size.entries).toBe(3);
    expect(cache.get(A, '1:20:')).toBeUndefined();
    expect(cache.get(B, '998:20:')?.text).toBe('p998');
  });

  it('holds at most maxBytes of answers, and keeps none heavier than a quarter of it', () => {
    const { cache, put } = setUp({ maxBytes: 1_000 });
    for (let i = 0; i < 100; i++) put(A, `${i}:20:`, 'x'.repeat(100));
    expect(cache.size.bytes).toBeLessThanOrEqual(1_000);
    expect(cache.size.entries).toBe(10);
    put(B, '0:100:', 'y'.repeat(251));
    expect(cache.get(B, '0:100:')).toBeUndefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(1_000);
  });

  it('keeps nothing with maxEntries 0', () => {
    const { cache, put } = setUp({ maxEntries: 0 });
    put(A, '0:20:', 'page');
    expect(cache.get(A, '0:20:')).toBeUndefined();
  });
});
