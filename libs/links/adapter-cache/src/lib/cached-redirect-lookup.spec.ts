import {
  LinkDomain,
  LinkDomains,
  LinkRepository,
  RedirectTarget,
  RepositoryRedirectLookup,
  ResolveRedirectUseCase,
} from '@lnk/links/domain';
import { CachedRedirectLookup, RedirectCacheOptions } from './cached-redirect-lookup';

/** The redirect as the apps compose it: the use case over the cached lookup (`cache`, told of changes). */
function resolverOf(links: LinkRepository, domains: LinkDomains, shortHosts: string[], options: RedirectCacheOptions, now: () => number) {
  const cache = new CachedRedirectLookup(new RepositoryRedirectLookup(links, domains), options, now);
  return Object.assign(new ResolveRedirectUseCase(cache, shortHosts), { cache });
}

const target = (domainId: string | null, slug: string): RedirectTarget => ({
  id: `${domainId}/${slug}`,
  ownerId: 'ada',
  domainId,
  slug,
  url: 'https://example.com/',
  name: slug,
  status: true,
  passwordHash: null,
});

describe('CachedRedirectLookup under ResolveRedirectUseCase: host cache', () => {
  it('stops answering for a custom domain as soon as it is told the domain lost its verification, not after the cache time', async () => {
    const verified = new Map<string, LinkDomain>([['go.example.com', { id: 'd1', name: 'go.example.com' }]]);
    const domains = { verifiedDomainByName: async (name: string) => verified.get(name) ?? null } as unknown as LinkDomains;
    const links = {
      findForRedirect: async (domainId: string | null, slug: string) =>
        domainId === 'd1' && slug === 'promo' ? target('d1', 'promo') : null,
    } as unknown as LinkRepository;
    const resolve = resolverOf(links, domains, ['s.lnk.test'], { maxEntries: 100, ttlMs: 60_000 }, () => 0);

    expect((await resolve.execute('GO.example.com', 'promo'))?.domainId).toBe('d1');
    verified.delete('go.example.com');
    // Still cached: the clock has not moved.
    expect((await resolve.execute('go.example.com', 'promo'))?.domainId).toBe('d1');
    resolve.cache.hostChanged('Go.Example.com');
    expect(await resolve.execute('go.example.com', 'promo')).toBeNull();
  });
});

// Issue 27: any host that was not a verified domain was given the default short domain's links, so a
// verified domain spelled with a trailing dot ("alice.example.org.") answered other accounts' slugs.
describe('CachedRedirectLookup under ResolveRedirectUseCase: namespaces', () => {
  const verified = new Map<string, LinkDomain>([['alice.example.org', { id: 'd1', name: 'alice.example.org' }]]);
  const domains = { verifiedDomainByName: async (name: string) => verified.get(name) ?? null } as unknown as LinkDomains;
  const rows = new Map<string, RedirectTarget>([
    ['d1/own', target('d1', 'own')],
    ['/mallory', target(null, 'mallory')],
  ]);
  const links = {
    findForRedirect: async (domainId: string | null, slug: string) => rows.get(`${domainId ?? ''}/${slug}`) ?? null,
  } as unknown as LinkRepository;
  const resolve = resolverOf(links, domains, ['S.lnk.test', '127.0.0.1'], { maxEntries: 100, ttlMs: 60_000 }, () => 0);

  it(
    'finds a verified domain by its name with or without one trailing dot, in ' +
      'any case, and never the default short domain’s links there',
    async () => {
      for (const host of ['alice.example.org', 'alice.example.org.', 'ALICE.Example.ORG.']) {
        expect((await resolve.execute(host, 'own'))?.domainId).toBe('d1');
        expect(await resolve.execute(host, 'mallory')).toBeNull();
        expect(await resolve.isCustomDomain(host)).toBe(true);
      }
    },
  );

  it('serves the default short domain’s links on the service’s own short hosts only: any other host has none', async () => {
    for (const host of ['s.lnk.test', 'S.LNK.TEST.', '127.0.0.1']) {
      expect((await resolve.execute(host, 'mallory'))?.slug).toBe('mallory');
      expect(resolve.isShortHost(host)).toBe(true);
    }
    for (const host of ['elsewhere.example.net', 'alice.example.org..', 's.lnk.test.evil.example', '']) {
      expect(await resolve.execute(host, 'mallory')).toBeNull();
      expect(resolve.isShortHost(host)).toBe(false);
    }
  });
});

describe('CachedRedirectLookup under ResolveRedirectUseCase: when the database fails', () => {
  // A database away or stalled must not turn every redirect of a known link into an error page once its
  // cache time is up: the last answer the database gave (a link, "not found", a host that is no custom
  // domain) is given again while asking fails. A change evicts its entry, so nothing changed is served.
  it('answers what it last knew, past its time, while the lookup fails; asks again once the database answers', async () => {
    let down = false;
    let time = 0;
    const fail = () => Promise.reject(new Error('database unavailable'));
    const domains = { verifiedDomainByName: () => (down ? fail() : Promise.resolve(null)) } as unknown as LinkDomains;
    const rows = new Map<string, RedirectTarget>([['/home', target(null, 'home')]]);
    const links = {
      findForRedirect: (domainId: string | null, slug: string) =>
        down ? fail() : Promise.resolve(rows.get(`${domainId ?? ''}/${slug}`) ?? null),
    } as unknown as LinkRepository;
    const resolve = resolverOf(links, domains, ['s.lnk.test'], { maxEntries: 100, ttlMs: 1_000 }, () => time);

    expect((await resolve.execute('s.lnk.test', 'home'))?.url).toBe('https://example.com/');
    expect(await resolve.execute('s.lnk.test', 'gone')).toBeNull();
    down = true;
    time += 60_000;
    expect((await resolve.execute('s.lnk.test', 'home'))?.url).toBe('https://example.com/');
    expect(await resolve.execute('s.lnk.test', 'gone')).toBeNull();
    // Never known: the failure is the answer.
    await expect(resolve.execute('s.lnk.test', 'never-seen')).rejects.toThrow('database unavailable');
    // A change evicts its entry: no stale answer for it.
    resolve.cache.linkChanged(null, 'home');
    await expect(resolve.execute('s.lnk.test', 'home')).rejects.toThrow('database unavailable');
    down = false;
    rows.set('/home', { ...target(null, 'home'), url: 'https://example.org/' });
    expect((await resolve.execute('s.lnk.test', 'home'))?.url).toBe('https://example.org/');
  });
});

describe('CachedRedirectLookup under ResolveRedirectUseCase:.forgetAll', () => {
  // While Redis is away the changes other instances make are not heard: the apps empty the whole cache
  // then (and when Redis returns), so no link or host cached before a missed change is answered again.
  it('forgets every cached link, "not found" answer and host, so the next lookups ask again', async () => {
    const verified = new Map<string, LinkDomain>([['go.example.com', { id: 'd1', name: 'go.example.com' }]]);
    const domains = { verifiedDomainByName: async (name: string) => verified.get(name) ?? null } as unknown as LinkDomains;
    const rows = new Map<string, RedirectTarget>([
      ['d1/promo', target('d1', 'promo')],
      ['/home', target(null, 'home')],
    ]);
    const links = {
      findForRedirect: async (domainId: string | null, slug: string) => rows.get(`${domainId ?? ''}/${slug}`) ?? null,
    } as unknown as LinkRepository;
    const resolve = resolverOf(links, domains, ['s.lnk.test'], { maxEntries: 100, ttlMs: 60_000 }, () => 0);

    expect((await resolve.execute('go.example.com', 'promo'))?.url).toBe('https://example.com/');
    expect((await resolve.execute('s.lnk.test', 'home'))?.url).toBe('https://example.com/');
    expect(await resolve.execute('s.lnk.test', 'new')).toBeNull();
    verified.delete('go.example.com');
    rows.set('/home', { ...target(null, 'home'), url: 'https://example.org/' });
    rows.set('/new', target(null, 'new'));
    // Still cached: the clock has not moved.
    expect((await resolve.execute('s.lnk.test', 'home'))?.url).toBe('https://example.com/');
    resolve.cache.forgetAll();
    expect(await resolve.execute('go.example.com', 'promo')).toBeNull();
    expect((await resolve.execute('s.lnk.test', 'home'))?.url).toBe('https://example.org/');
    expect((await resolve.execute('s.lnk.test', 'new'))?.slug).toBe('new');
  });
});

describe('CachedRedirectLookup under ResolveRedirectUseCase:.isCustomDomain', () => {
  // A custom domain's `/` and unknown slugs belong to its owner: the service's home page or its
  // not-found redirect must not answer there (an owner's domain would advertise, or send visitors to, the operator's page).
  it('names only verified custom domains, whatever the case of the host, and forgets a domain that lost its verification', async () => {
    const verified = new Map<string, LinkDomain>([['go.example.com', { id: 'd1', name: 'go.example.com' }]]);
    const domains = { verifiedDomainByName: async (name: string) => verified.get(name) ?? null } as unknown as LinkDomains;
    const resolve = resolverOf(
      { findForRedirect: async () => null } as unknown as LinkRepository,
      domains,
      ['s.lnk.test'],
      { maxEntries: 100, ttlMs: 60_000 },
      () => 0,
    );

    expect(await resolve.isCustomDomain('GO.example.com')).toBe(true);
    expect(await resolve.isCustomDomain('localhost')).toBe(false);
    verified.delete('go.example.com');
    resolve.cache.hostChanged('go.example.com');
    expect(await resolve.isCustomDomain('go.example.com')).toBe(false);
  });
});

/** Links by (domain, slug), copied on read and write; each lookup waits for `release` when one is set. */
class SlowRedirects {
  readonly rows = new Map<string, RedirectTarget>();
  lookups = 0;
  gate: Promise<void> | null = null;
  put(t: RedirectTarget): void {
    this.rows.set(`${t.domainId ?? ''}/${t.slug}`, { ...t });
  }
  async findForRedirect(domainId: string | null, slug: string): Promise<RedirectTarget | null> {
    this.lookups++;
    const row = this.rows.get(`${domainId ?? ''}/${slug}`);
    const copy = row ? { ...row } : null;
    if (this.gate) await this.gate;
    return copy;
  }
}

function gated(): { gate: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { gate, open };
}

describe('CachedRedirectLookup under ResolveRedirectUseCase: link cache', () => {
  const noDomains = { verifiedDomainByName: async () => null } as unknown as LinkDomains;
  const setUp = (options = { maxEntries: 100, ttlMs: 60_000, notFoundMaxEntries: 10, notFoundTtlMs: 5_000 }) => {
    let now = 0;
    const repository = new SlowRedirects();
    const resolve = resolverOf(repository as unknown as LinkRepository, noDomains, ['s.lnk.test'], options, () => now);
    return { repository, resolve, advance: (ms: number) => (now += ms) };
  };

  // The bug of issue 13: GET /abc → 404, create abc, GET /abc → still 404 for a minute.
  it('answers a link created after its slug was looked up and not found, at once (the creation evicts the "not found")', async () => {
    const { repository, resolve } = setUp();
    expect(await resolve.execute('s.lnk.test', 'abc')).toBeNull();
    repository.put(target(null, 'abc'));
    // Still the cached "not found" until told.
    expect(await resolve.execute('s.lnk.test', 'abc')).toBeNull();
    resolve.cache.linkChanged(null, 'abc');
    expect((await resolve.execute('s.lnk.test', 'abc'))?.slug).toBe('abc');
  });

  it('keeps "not found" only briefly, found links for the full time', async () => {
    const { repository, resolve, advance } = setUp();
    repository.put(target(null, 'found'));
    await resolve.execute('s.lnk.test', 'found');
    await resolve.execute('s.lnk.test', 'missing');
    expect(repository.lookups).toBe(2);
    advance(5_001);
    await resolve.execute('s.lnk.test', 'found');
    await resolve.execute('s.lnk.test', 'missing');
    expect(repository.lookups).toBe(3);
  });

  // A change made where this process is not told (another instance without the cache channel) shows after the cache time.
  it('forgets a found link after its cache time, not before', async () => {
    const { repository, resolve, advance } = setUp();
    repository.put(target(null, 'aged'));
    await resolve.execute('s.lnk.test', 'aged');
    repository.put({ ...target(null, 'aged'), url: 'https://example.org/new' });
    advance(59_999);
    expect((await resolve.execute('s.lnk.test', 'aged'))?.url).toBe('https://example.com/');
    advance(2);
    expect((await resolve.execute('s.lnk.test', 'aged'))?.url).toBe('https://example.org/new');
    expect(repository.lookups).toBe(2);
  });

  // Scanners: a flood of unknown slugs must not push the popular links out of the cache (each would then cost a query).
  it('does not let a flood of unknown slugs evict found links, and bounds what it keeps of them', async () => {
    const { repository, resolve } = setUp();
    for (let i = 0; i < 50; i++) repository.put(target(null, `popular${i}`));
    for (let i = 0; i < 50; i++) await resolve.execute('s.lnk.test', `popular${i}`);
    for (let i = 0; i < 10_000; i++) await resolve.execute('s.lnk.test', `scan${i}`);
    const before = repository.lookups;
    for (let i = 0; i < 50; i++) expect((await resolve.execute('s.lnk.test', `popular${i}`))?.slug).toBe(`popular${i}`);
    expect(repository.lookups).toBe(before);
    // Only the last 10 unknown slugs are remembered (notFoundMaxEntries): the first one is asked again.
    await resolve.execute('s.lnk.test', 'scan9999');
    expect(repository.lookups).toBe(before);
    await resolve.execute('s.lnk.test', 'scan0');
    expect(repository.lookups).toBe(before + 1);
  });

  // A full cache forgets the least recently used links, not the ones visitors keep asking for.
  it('keeps a link asked for all along while a stream of other links passes through a full cache', async () => {
    const { repository, resolve } = setUp();
    repository.put(target(null, 'hot'));
    for (let i = 0; i < 1_000; i++) repository.put(target(null, `cold${i}`));
    await resolve.execute('s.lnk.test', 'hot');
    for (let i = 0; i < 1_000; i++) {
      await resolve.execute('s.lnk.test', `cold${i}`);
      expect((await resolve.execute('s.lnk.test', 'hot'))?.slug).toBe('hot');
    }
    // One lookup of each link: the hot one was never evicted by the 1,000 others through a cache of 100.
    expect(repository.lookups).toBe(1_001);
    await resolve.execute('s.lnk.test', 'cold0');
    expect(repository.lookups).toBe(1_002);
  });

  // A burst of requests for one uncached slug (a link just posted somewhere, or a scanner) must not become a burst of queries.
  it('makes one lookup for 50 concurrent misses of one slug, found or not', async () => {
    const { repository, resolve } = setUp();
    repository.put(target(null, 'hot'));
    const { gate, open } = gated();
    repository.gate = gate;
    const found = Array.from({ length: 50 }, () => resolve.execute('s.lnk.test', 'hot'));
    const missing = Array.from({ length: 50 }, () => resolve.execute('s.lnk.test', 'cold'));
    open();
    expect((await Promise.all(found)).every((t) => t?.slug === 'hot')).toBe(true);
    expect((await Promise.all(missing)).every((t) => t === null)).toBe(true);
    expect(repository.lookups).toBe(2);
  });

  // A lookup that read the row before a change landed must not put the old answer back into the cache.
  it('does not cache the answer of a lookup that was running when the link changed', async () => {
    const { repository, resolve } = setUp();
    const { gate, open } = gated();
    repository.gate = gate;
    const stale = resolve.execute('s.lnk.test', 'racing');
    await new Promise((resolve) => setImmediate(resolve));
    repository.put(target(null, 'racing'));
    resolve.cache.linkChanged(null, 'racing');
    open();
    expect(await stale).toBeNull();
    repository.gate = null;
    expect((await resolve.execute('s.lnk.test', 'racing'))?.slug).toBe('racing');
  });

  it('does not cache a failed lookup: the next request asks again', async () => {
    const { repository, resolve } = setUp();
    const failing = repository as unknown as { findForRedirect: () => Promise<never> };
    const original = repository.findForRedirect.bind(repository);
    failing.findForRedirect = async () => Promise.reject(new Error('database down'));
    await expect(resolve.execute('s.lnk.test', 'abc')).rejects.toThrow('database down');
    repository.put(target(null, 'abc'));
    (repository as unknown as { findForRedirect: typeof original }).findForRedirect = original;
    expect((await resolve.execute('s.lnk.test', 'abc'))?.slug).toBe('abc');
  });

  // Any Host header reaches the cache: a flood of made-up hosts must not push the verified domains out.
  it('does not let a flood of unknown hosts evict the verified custom domains', async () => {
    let asked = 0;
    const domains = {
      verifiedDomainByName: async (name: string) => {
        asked++;
        return name === 'go.example.com' ? { id: 'd1', name } : null;
      },
    } as unknown as LinkDomains;
    const resolve = resolverOf(
      new SlowRedirects() as unknown as LinkRepository,
      domains,
      ['s.lnk.test'],
      { maxEntries: 100, ttlMs: 60_000, notFoundMaxEntries: 10 },
      () => 0,
    );
    expect(await resolve.isCustomDomain('go.example.com')).toBe(true);
    for (let i = 0; i < 20_000; i++) await resolve.isCustomDomain(`scan${i}.example.net`);
    const before = asked;
    expect(await resolve.isCustomDomain('go.example.com')).toBe(true);
    expect(asked).toBe(before);
  });

  // The domain twin (issue 11): a custom domain cached as unknown must answer as soon as it is verified.
  it('answers a custom domain’s link at once when the host, cached as unknown, is verified', async () => {
    const verified = new Map<string, LinkDomain>();
    const domains = { verifiedDomainByName: async (name: string) => verified.get(name) ?? null } as unknown as LinkDomains;
    const repository = new SlowRedirects();
    repository.put(target('d1', 'promo'));
    const resolve = resolverOf(
      repository as unknown as LinkRepository,
      domains,
      ['s.lnk.test'],
      { maxEntries: 100, ttlMs: 60_000 },
      () => 0,
    );
    expect(await resolve.isCustomDomain('go.example.com')).toBe(false);
    expect(await resolve.execute('go.example.com', 'promo')).toBeNull();
    verified.set('go.example.com', { id: 'd1', name: 'go.example.com' });
    resolve.cache.hostChanged('go.example.com');
    expect((await resolve.execute('go.example.com', 'promo'))?.domainId).toBe('d1');
  });
});
