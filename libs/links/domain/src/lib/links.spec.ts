import { Clock, IdGenerator, NotFoundError, Page, PageRequest, pageOf, PasswordHasher, QuotaExceededError, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { checkDestinationUrl } from './model/destination-url';
import { Link } from './model/link.entity';
import { checkSlug } from './model/slug';
import { Tag, TagWithCount } from './model/tag.entity';
import { LinkDomains, SlugGenerator } from './ports/link-ports';
import { LinkRepository } from './ports/link.repository';
import { TagRepository } from './ports/tag.repository';
import { CreateLinkUseCase, GetLinkUseCase, UpdateLinkUseCase } from './use-cases/links.use-cases';

const fieldOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as ValidationError).errors?.[0]?.name;
  }
  return undefined;
};

describe('slug rules', () => {
  it.each(['a', 'Promo_2026', 'x-y', 'A'.repeat(64)])('accepts %p', (slug) => expect(checkSlug(slug)).toBe(slug));
  it.each(['', 'a b', 'é', 'a/b', 'a.b', 'A'.repeat(65), 'oauth', 'USER', 'health', 'docs', 'v1', 'api', 'auth'])('refuses %p on slug', (slug) => {
    expect(fieldOf(() => checkSlug(slug))).toBe('slug');
  });
});

describe('destination URL rules', () => {
  const own = ['s.lnk.test'];
  /** The url field's message, or undefined when the URL is accepted. */
  const urlErrorOf = (url: string, ownHosts: string[]) => {
    try {
      checkDestinationUrl(url, ownHosts);
    } catch (error) {
      return (error as ValidationError).errors.find((e) => e.name === 'url')?.error;
    }
    return undefined;
  };
  it.each(['https://example.com/', 'http://example.com/a?b=c#d', `https://example.com/${'a'.repeat(2000)}`])('accepts %p', (url) => expect(checkDestinationUrl(url, own)).toBe(url));
  it.each([undefined, '', 'example.com', '/relative', 'ftp://example.com', 'javascript:alert(1)', 'data:text/html,x', 'https://s.lnk.test/abc', 'https://S.LNK.TEST./abc', `https://example.com/${'a'.repeat(2040)}`])(
    'refuses %p on url',
    (url) => expect(fieldOf(() => checkDestinationUrl(url, own))).toBe('url'),
  );

  // Stored as typed, a non-ASCII host or path made the redirect's Location header fail (a 500).
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['  HTTPS://Example.COM:443/a b  ', 'https://example.com/a%20b'],
    ['https://exämple.com/päth?q=ü#ö', 'https://xn--exmple-cua.com/p%C3%A4th?q=%C3%BC#%C3%B6'],
    ['https://example.com/../a/./b', 'https://example.com/a/b'],
  ])('stores %p as the URL parser writes it: %p', (url, stored) => expect(checkDestinationUrl(url, own)).toBe(stored));

  // CR/LF split the Location header (a 500 that leaked the framework's error); TAB and LF the URL parser drops silently.
  it.each(['https://example.com/a\r\nSet-Cookie: x=1', 'https://example.com/\n', 'https://exa\tmple.com/', 'https://example.com/\u0000', 'https://example.com/\u007f', 'https://example.com/\u0085', '\u001bhttps://example.com/'])(
    'refuses control characters in %j',
    (url) => expect(urlErrorOf(url, own)).toMatch(/control characters/),
  );

  // https://bank.example@evil.example/ shows a trusted name to the reader and goes to another host.
  it.each(['https://bank.example@evil.example/', 'https://user:pass@example.com/', 'https://:pass@example.com/'])('refuses user info in %p', (url) =>
    expect(urlErrorOf(url, own)).toMatch(/user name or password/),
  );

  // A short link to the service itself under another spelling of its address loops through it.
  describe('when the service runs on loopback (127.0.0.1)', () => {
    const loopback = ['127.0.0.1'];
    it.each(['http://127.0.0.1:8080/', 'http://2130706433/', 'http://0x7f.0.0.1/', 'http://0177.0.0.1/', 'http://127.1/', 'http://127.0.0.1./', 'http://127.0.0.2/', 'http://[::1]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[::ffff:127.0.0.1]/', 'http://localhost/', 'http://LOCALHOST./', 'http://app.localhost/', 'http://0.0.0.0/', 'http://0/', 'http://[::]/'])(
      'refuses %p',
      (url) => expect(urlErrorOf(url, loopback)).toMatch(/short domain of this service/),
    );
    it('accepts other hosts', () => expect(checkDestinationUrl('http://192.168.1.10/', loopback)).toBe('http://192.168.1.10/'));
  });

  describe('when the service has a public address or name', () => {
    const publicHosts = ['203.0.113.5', 'lnk.example', 'xn--bcher-kva.example'];
    it.each(['http://203.0.113.5/', 'http://3405803781/', 'http://[::ffff:203.0.113.5]/', 'https://LNK.example./x', 'https://bücher.example/'])('refuses %p', (url) =>
      expect(urlErrorOf(url, publicHosts)).toMatch(/short domain of this service/),
    );
    // Loopback is refused only when it is where the service runs.
    it.each(['http://127.0.0.1/', 'http://localhost:3000/', 'http://203.0.113.6/'])('accepts %p', (url) => expect(urlErrorOf(url, publicHosts)).toBeUndefined());
  });
});

class MemoryLinks extends LinkRepository {
  readonly rows: Link[] = [];
  takenSlugs = new Set<string>();
  async insertWithinQuota(link: Link, limit: number) {
    const used = this.rows.filter((l) => l.ownerId === link.ownerId).length;
    if (used >= limit) throw new QuotaExceededError('links', used, limit);
    const key = `${link.domainId ?? ''}/${link.slug}`;
    if (this.takenSlugs.has(key)) throw ValidationError.field('slug', 'slug is already taken on this domain');
    this.takenSlugs.add(key);
    this.rows.push(link);
  }
  async findOfOwner(ownerId: string, id: string) {
    return this.rows.find((l) => l.ownerId === ownerId && l.id === id) ?? null;
  }
  async listOfOwner(ownerId: string, _q: string | undefined, page: PageRequest): Promise<Page<Link>> {
    const mine = this.rows.filter((l) => l.ownerId === ownerId);
    return pageOf(mine, mine.length, page);
  }
  async update() {
    // Links are held by reference: the changed object is the stored one.
  }
  async deleteOfOwner() {
    return false;
  }
  async countOfOwner(ownerId: string) {
    return this.rows.filter((l) => l.ownerId === ownerId).length;
  }
  async countUsingDomain() {
    return 0;
  }
  async deleteAllOfOwner() {
    this.rows.length = 0;
  }
  async findForRedirect() {
    return null;
  }
  async addClicks() {
    // Clicks are not under test here.
  }
}

class MemoryTags extends TagRepository {
  readonly rows: Tag[] = [];
  async insertWithinQuota(tag: Tag) {
    this.rows.push(tag);
  }
  async listOfOwner(): Promise<Page<TagWithCount>> {
    return pageOf([], 0, PageRequest.of());
  }
  async favoritesOfOwner() {
    return [];
  }
  async findOfOwner() {
    return null;
  }
  async findManyOfOwner(ownerId: string, ids: string[]) {
    return this.rows.filter((t) => t.ownerId === ownerId && ids.includes(t.id));
  }
  async update() {
    // Held by reference.
  }
  async deleteOfOwner() {
    return false;
  }
  async countOfOwner() {
    return this.rows.length;
  }
  async deleteAllOfOwner() {
    this.rows.length = 0;
  }
}

let n = 0;
const ids: IdGenerator = { next: () => (++n).toString(16).padStart(24, '0') };
const clock: Clock = { now: () => new Date('2026-02-03T04:05:06.007Z') };
const quota: QuotaPolicy = { limitFor: async () => 3 };
const hasher: PasswordHasher = { hash: async (p) => `hashed:${p}`, verify: async (p, h) => h === `hashed:${p}` };
const domains: LinkDomains = {
  verifiedDomainOf: async (ownerId, id) => (ownerId === 'ada' && id === 'dom-verified' ? { id, name: 'go.example.com' } : null),
  namesOf: async () => new Map([['dom-verified', 'go.example.com']]),
  verifiedDomainByName: async () => null,
};

describe('link use cases', () => {
  let links: MemoryLinks;
  let tags: MemoryTags;
  let slugs: string[];
  let create: CreateLinkUseCase;
  let update: UpdateLinkUseCase;

  beforeEach(() => {
    links = new MemoryLinks();
    tags = new MemoryTags();
    slugs = ['aaaaaaa', 'bbbbbbb', 'ccccccc', 'ddddddd', 'eeeeeee', 'fffffff'];
    const generator: SlugGenerator = { generate: () => slugs.shift() as string };
    create = new CreateLinkUseCase(links, tags, domains, quota, hasher, generator, ids, clock, { ownHosts: ['s.lnk.test'] }, { linkChanged: () => undefined });
    update = new UpdateLinkUseCase(links, tags, domains, hasher, clock, { ownHosts: ['s.lnk.test'] }, new GetLinkUseCase(links, tags, domains), { linkChanged: () => undefined });
  });

  it('generates a slug, drawing again when one collides', async () => {
    links.takenSlugs.add('/aaaaaaa');
    const { link } = await create.execute('ada', { url: 'https://example.com' });
    expect(link.slug).toBe('bbbbbbb');
    expect(link.status).toBe(true);
  });

  it('gives up after five collisions rather than looping', async () => {
    for (const s of slugs.slice(0, 5)) links.takenSlugs.add(`/${s}`);
    await expect(create.execute('ada', { url: 'https://example.com' })).rejects.toMatchObject({ errors: [{ name: 'slug' }] });
  });

  it('refuses a chosen slug already taken on the domain', async () => {
    await create.execute('ada', { url: 'https://example.com', slug: 'promo' });
    await expect(create.execute('bob', { url: 'https://example.com', slug: 'promo' })).rejects.toMatchObject({ errors: [{ name: 'slug' }] });
    await expect(create.execute('ada', { url: 'https://example.com', slug: 'promo', domainId: 'dom-verified' })).resolves.toMatchObject({ domain: { name: 'go.example.com' } });
  });

  // Issue 13: a "not found" cached for the slug before the link existed kept answering 404 for a minute.
  it('tells the redirect caches of a created link, on the domain it was created on, and not of a refused one', async () => {
    const changed: string[] = [];
    const generator: SlugGenerator = { generate: () => slugs.shift() as string };
    const told = new CreateLinkUseCase(links, tags, domains, quota, hasher, generator, ids, clock, { ownHosts: ['s.lnk.test'] }, { linkChanged: (domainId, slug) => changed.push(`${domainId}/${slug}`) });
    await told.execute('ada', { url: 'https://example.com', slug: 'abc' });
    await told.execute('ada', { url: 'https://example.com', slug: 'abc', domainId: 'dom-verified' });
    await expect(told.execute('bob', { url: 'https://example.com', slug: 'abc' })).rejects.toMatchObject({ errors: [{ name: 'slug' }] });
    expect(changed).toEqual(['null/abc', 'dom-verified/abc']);
  });

  it('stops at the quota of the plan', async () => {
    for (let i = 0; i < 3; i++) await create.execute('ada', { url: `https://example.com/${i}` });
    await expect(create.execute('ada', { url: 'https://example.com/x' })).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', meta: { limit: { resource: 'links', used: 3, limit: 3 } } });
  });

  it('accepts only a verified domain of the owner, and only the owner’s tags', async () => {
    await expect(create.execute('bob', { url: 'https://example.com', domainId: 'dom-verified' })).rejects.toMatchObject({ errors: [{ name: 'domainId' }] });
    tags.rows.push(new Tag({ id: 't1', ownerId: 'bob', name: 'x', isFavorite: false, createdAt: clock.now(), updatedAt: clock.now() }));
    await expect(create.execute('ada', { url: 'https://example.com', tags: ['t1'] })).rejects.toMatchObject({ errors: [{ name: 'tags' }] });
  });

  it('hashes a password, requires one with hasPassword, and removes it with hasPassword false', async () => {
    await expect(create.execute('ada', { url: 'https://example.com', hasPassword: true })).rejects.toMatchObject({ errors: [{ name: 'password' }] });
    await expect(create.execute('ada', { url: 'https://example.com', password: 'x' })).rejects.toMatchObject({ errors: [{ name: 'password' }] });
    // A 4-character password fell quickly to guesses from many addresses: at least 8, on create and update.
    await expect(create.execute('ada', { url: 'https://example.com', hasPassword: true, password: '1234567' })).rejects.toMatchObject({ errors: [{ name: 'password' }] });
    const { link } = await create.execute('ada', { url: 'https://example.com', hasPassword: true, password: 'open sesame' });
    expect(link.passwordHash).toBe('hashed:open sesame');
    const kept = await update.execute('ada', link.id, { title: 'renamed', hasPassword: true });
    expect(kept.link.passwordHash).toBe('hashed:open sesame');
    await expect(update.execute('ada', link.id, { hasPassword: true, password: 'short' })).rejects.toMatchObject({ errors: [{ name: 'password' }] });
    await expect(update.execute('ada', link.id, { password: '1234567' })).rejects.toMatchObject({ errors: [{ name: 'password' }] });
    const removed = await update.execute('ada', link.id, { hasPassword: false });
    expect(removed.link.hasPassword).toBe(false);
  });

  it('updates only the fields given, checking each, and refuses another owner', async () => {
    const { link } = await create.execute('ada', { url: 'https://example.com', title: 'A', description: 'd' });
    const updated = await update.execute('ada', link.id, { title: 'B', url: 'https://example.org' });
    expect(updated.link).toMatchObject({ title: 'B', url: 'https://example.org/', description: 'd', slug: link.slug });
    await expect(update.execute('ada', link.id, { url: 'https://s.lnk.test/x' })).rejects.toMatchObject({ errors: [{ name: 'url' }] });
    await expect(update.execute('bob', link.id, { title: 'C' })).rejects.toBeInstanceOf(NotFoundError);
  });
});
