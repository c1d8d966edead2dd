import { Clock, IdGenerator, NotFoundError, PasswordHasher, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { clientAddressKey, clockReading } from '@lnk/shared/testing';
import { MemoryLinkRepository, memoryLinksRepositories, MemoryRedirectLookup, MemoryTagRepository } from '@lnk/links/testing';
import { checkDestinationUrl } from './model/destination-url';
import { Link } from './model/link.entity';
import { checkSlug } from './model/slug';
import { Tag } from './model/tag.entity';
import { LinkChanges } from './ports/link-changes.port';
import { LinkDomains } from './ports/link-domains.port';
import { SlugGenerator } from './ports/slug-generator.port';
import { RedirectTarget } from './ports/link.repository';
import { PasswordAttempts } from './ports/password-attempts.port';
import { CheckLinkPasswordUseCase } from './use-cases/check-link-password.use-case';
import { CreateLinkUseCase } from './use-cases/create-link.use-case';
import { DeleteLinkUseCase } from './use-cases/delete-link.use-case';
import { GetLinkUseCase } from './use-cases/get-link.use-case';
import { UpdateLinkUseCase } from './use-cases/update-link.use-case';
import { ResolveRedirectUseCase } from './use-cases/resolve-redirect.use-case';
import { RepositoryRedirectLookup } from './services/repository-redirect-lookup';
import { LinkViews } from './services/link-views';

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
  it.each(['', 'a b', 'é', 'a/b', 'a.b', 'A'.repeat(65), 'oauth', 'USER', 'health', 'docs', 'v1', 'api', 'auth'])(
    'refuses %p on slug',
    (slug) => {
      expect(fieldOf(() => checkSlug(slug))).toBe('slug');
    },
  );
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
  it.each(['https://example.com/', 'http://example.com/a?b=c#d', `https://example.com/${'a'.repeat(2000)}`])('accepts %p', (url) =>
    expect(checkDestinationUrl(url, own)).toBe(url),
  );
  it.each([
    undefined,
    '',
    'example.com',
    '/relative',
    'ftp://example.com',
    'javascript:alert(1)',
    'data:text/html,x',
    'https://s.lnk.test/abc',
    'https://S.LNK.TEST./abc',
    `https://example.com/${'a'.repeat(2040)}`,
  ])('refuses %p on url', (url) => expect(fieldOf(() => checkDestinationUrl(url, own))).toBe('url'));

  // Stored as typed, a non-ASCII host or path made the redirect's Location header fail (a 500).
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['  HTTPS://Example.COM:443/a b  ', 'https://example.com/a%20b'],
    ['https://exämple.com/päth?q=ü#ö', 'https://xn--exmple-cua.com/p%C3%A4th?q=%C3%BC#%C3%B6'],
    ['https://example.com/../a/./b', 'https://example.com/a/b'],
  ])('stores %p as the URL parser writes it: %p', (url, stored) => expect(checkDestinationUrl(url, own)).toBe(stored));

  // CR/LF split the Location header (a 500 that leaked the framework's error); TAB and LF the URL parser drops silently.
  it.each([
    'https://example.com/a\r\nSet-Cookie: x=1',
    'https://example.com/\n',
    'https://exa\tmple.com/',
    'https://example.com/\u0000',
    'https://example.com/\u007f',
    'https://example.com/\u0085',
    '\u001bhttps://example.com/',
  ])('refuses control characters in %j', (url) => expect(urlErrorOf(url, own)).toMatch(/control characters/));

  // https://bank.example@evil.example/ shows a trusted name to the reader and goes to another host.
  it.each(['https://bank.example@evil.example/', 'https://user:pass@example.com/', 'https://:pass@example.com/'])(
    'refuses user info in %p',
    (url) => expect(urlErrorOf(url, own)).toMatch(/user name or password/),
  );

  // A short link to the service itself under another spelling of its address loops through it.
  describe('when the service runs on loopback (127.0.0.1)', () => {
    const loopback = ['127.0.0.1'];
    it.each([
      'http://127.0.0.1:8080/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://127.0.0.1./',
      'http://127.0.0.2/',
      'http://[::1]/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost/',
      'http://LOCALHOST./',
      'http://app.localhost/',
      'http://0.0.0.0/',
      'http://0/',
      'http://[::]/',
    ])('refuses %p', (url) => expect(urlErrorOf(url, loopback)).toMatch(/short domain of this service/));
    it('accepts other hosts', () => expect(checkDestinationUrl('http://192.168.1.10/', loopback)).toBe('http://192.168.1.10/'));
  });

  describe('when the service has a public address or name', () => {
    const publicHosts = ['203.0.113.5', 'lnk.example', 'xn--bcher-kva.example'];
    it.each([
      'http://203.0.113.5/',
      'http://3405803781/',
      'http://[::ffff:203.0.113.5]/',
      'https://LNK.example./x',
      'https://bücher.example/',
    ])('refuses %p', (url) => expect(urlErrorOf(url, publicHosts)).toMatch(/short domain of this service/));
    // Loopback is refused only when it is where the service runs.
    it.each(['http://127.0.0.1/', 'http://localhost:3000/', 'http://203.0.113.6/'])('accepts %p', (url) =>
      expect(urlErrorOf(url, publicHosts)).toBeUndefined(),
    );
  });
});

let n = 0;
const ids: IdGenerator = { next: () => (++n).toString(16).padStart(24, '0') };
const clock: Clock = clockReading(() => new Date('2026-02-03T04:05:06.007Z'));
const quota: QuotaPolicy = { limitFor: async () => 3 };
const hasher: PasswordHasher = { hash: async (p) => `hashed:${p}`, verify: async (p, h) => h === `hashed:${p}` };
const domains: LinkDomains = {
  verifiedDomainOf: async (ownerId, id) => (ownerId === 'ada' && id === 'dom-verified' ? { id, name: 'go.example.com' } : null),
  namesOf: async () => new Map([['dom-verified', 'go.example.com']]),
  verifiedDomainByName: async () => null,
};

describe('link use cases', () => {
  let links: MemoryLinkRepository;
  let tags: MemoryTagRepository;
  let slugs: string[];
  let create: CreateLinkUseCase;
  let update: UpdateLinkUseCase;

  beforeEach(() => {
    ({ links, tags } = memoryLinksRepositories());
    slugs = ['aaaaaaa', 'bbbbbbb', 'ccccccc', 'ddddddd', 'eeeeeee', 'fffffff'];
    const generator: SlugGenerator = { generate: () => slugs.shift() as string };
    create = new CreateLinkUseCase({
      links,
      tags,
      domains,
      quota,
      passwords: hasher,
      slugs: generator,
      ids,
      clock,
      config: { ownHosts: ['s.lnk.test'] },
      changes: { linkChanged: () => undefined },
    });
    update = new UpdateLinkUseCase({
      links,
      tags,
      domains,
      passwords: hasher,
      clock,
      config: { ownHosts: ['s.lnk.test'] },
      getLink: new GetLinkUseCase(links, new LinkViews(tags, domains)),
      changes: { linkChanged: () => undefined },
    });
  });

  /** Another account's link on the default domain holds the slug. */
  const takeSlug = (slug: string) =>
    links.insertWithinQuota(
      new Link({
        id: `taken-${slug}`,
        ownerId: 'carol',
        domainId: null,
        slug,
        url: 'https://example.com/',
        title: '',
        description: '',
        status: true,
        passwordHash: null,
        tagIds: [],
        clicks: 0,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      }),
      100,
    );

  it('generates a slug, drawing again when one collides', async () => {
    await takeSlug('aaaaaaa');
    const { link } = await create.execute('ada', { url: 'https://example.com' });
    expect(link.slug).toBe('bbbbbbb');
    expect(link.status).toBe(true);
  });

  it('gives up after five collisions rather than looping', async () => {
    for (const s of slugs.slice(0, 5)) await takeSlug(s);
    await expect(create.execute('ada', { url: 'https://example.com' })).rejects.toMatchObject({ errors: [{ name: 'slug' }] });
  });

  it('refuses a chosen slug already taken on the domain', async () => {
    await create.execute('ada', { url: 'https://example.com', slug: 'promo' });
    await expect(create.execute('bob', { url: 'https://example.com', slug: 'promo' })).rejects.toMatchObject({
      errors: [{ name: 'slug' }],
    });
    await expect(create.execute('ada', { url: 'https://example.com', slug: 'promo', domainId: 'dom-verified' })).resolves.toMatchObject({
      domain: { name: 'go.example.com' },
    });
  });

  // Issue 13: a "not found" cached for the slug before the link existed kept answering 404 for a minute.
  it('tells the redirect caches of a created link, on the domain it was created on, and not of a refused one', async () => {
    const changed: string[] = [];
    const generator: SlugGenerator = { generate: () => slugs.shift() as string };
    const told = new CreateLinkUseCase({
      links,
      tags,
      domains,
      quota,
      passwords: hasher,
      slugs: generator,
      ids,
      clock,
      config: { ownHosts: ['s.lnk.test'] },
      changes: { linkChanged: (domainId, slug) => changed.push(`${domainId}/${slug}`) },
    });
    await told.execute('ada', { url: 'https://example.com', slug: 'abc' });
    await told.execute('ada', { url: 'https://example.com', slug: 'abc', domainId: 'dom-verified' });
    await expect(told.execute('bob', { url: 'https://example.com', slug: 'abc' })).rejects.toMatchObject({ errors: [{ name: 'slug' }] });
    expect(changed).toEqual(['null/abc', 'dom-verified/abc']);
  });

  it('stops at the quota of the plan', async () => {
    for (let i = 0; i < 3; i++) await create.execute('ada', { url: `https://example.com/${i}` });
    await expect(create.execute('ada', { url: 'https://example.com/x' })).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      meta: { limit: { resource: 'links', used: 3, limit: 3 } },
    });
  });

  it('accepts only a verified domain of the owner, and only the owner’s tags', async () => {
    await expect(create.execute('bob', { url: 'https://example.com', domainId: 'dom-verified' })).rejects.toMatchObject({
      errors: [{ name: 'domainId' }],
    });
    await tags.insertWithinQuota(
      new Tag({ id: 't1', ownerId: 'bob', name: 'x', isFavorite: false, createdAt: clock.now(), updatedAt: clock.now() }),
      10,
    );
    await expect(create.execute('ada', { url: 'https://example.com', tags: ['t1'] })).rejects.toMatchObject({ errors: [{ name: 'tags' }] });
  });

  it('hashes a password, requires one with hasPassword, and removes it with hasPassword false', async () => {
    await expect(create.execute('ada', { url: 'https://example.com', hasPassword: true })).rejects.toMatchObject({
      errors: [{ name: 'password' }],
    });
    await expect(create.execute('ada', { url: 'https://example.com', password: 'x' })).rejects.toMatchObject({
      errors: [{ name: 'password' }],
    });
    // A 4-character password fell quickly to guesses from many addresses: at least 8, on create and update.
    await expect(create.execute('ada', { url: 'https://example.com', hasPassword: true, password: '1234567' })).rejects.toMatchObject({
      errors: [{ name: 'password' }],
    });
    const { link } = await create.execute('ada', { url: 'https://example.com', hasPassword: true, password: 'open sesame' });
    expect(link.passwordHash).toBe('hashed:open sesame');
    const kept = await update.execute('ada', link.id, { title: 'renamed', hasPassword: true });
    expect(kept.link.passwordHash).toBe('hashed:open sesame');
    await expect(update.execute('ada', link.id, { hasPassword: true, password: 'short' })).rejects.toMatchObject({
      errors: [{ name: 'password' }],
    });
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

/** The link use cases over one in-memory store, telling `changes` of every link they change. */
function linkUseCases(changes: LinkChanges) {
  const { links, tags } = memoryLinksRepositories();
  const slugs = ['aaaaaaa', 'bbbbbbb', 'ccccccc'];
  const generator: SlugGenerator = { generate: () => slugs.shift() as string };
  const getLink = new GetLinkUseCase(links, new LinkViews(tags, domains));
  return {
    links,
    tags,
    create: new CreateLinkUseCase({
      links,
      tags,
      domains,
      quota,
      passwords: hasher,
      slugs: generator,
      ids,
      clock,
      config: { ownHosts: ['s.lnk.test'] },
      changes,
    }),
    update: new UpdateLinkUseCase({
      links,
      tags,
      domains,
      passwords: hasher,
      clock,
      config: { ownHosts: ['s.lnk.test'] },
      getLink,
      changes,
    }),
    remove: new DeleteLinkUseCase(links, clock, changes),
  };
}

// These read what was stored, not the object the use case held: with the old by-reference fakes they
// passed even when a use case forgot to save its change.
describe('link use cases save through the repository', () => {
  it('stores an update: a fresh read and the redirect lookup both see the new destination and title', async () => {
    const { links, create, update } = linkUseCases({ linkChanged: () => undefined });
    const { link } = await create.execute('ada', { url: 'https://example.com', slug: 'saved' });
    await update.execute('ada', link.id, { url: 'https://example.org/new', title: 'New' });
    expect((await links.findOfOwner('ada', link.id))?.toProps()).toMatchObject({
      url: 'https://example.org/new',
      title: 'New',
      slug: 'saved',
    });
    expect(await links.findForRedirect(null, 'saved')).toMatchObject({ url: 'https://example.org/new', name: 'New' });
  });

  // A refused change must neither be stored nor evict anything.
  it('stores nothing and tells no cache when an update or a deletion is refused', async () => {
    const changed: string[] = [];
    const { links, create, update, remove } = linkUseCases({ linkChanged: (domainId, slug) => changed.push(`${domainId}/${slug}`) });
    const { link } = await create.execute('ada', { url: 'https://example.com', slug: 'kept' });
    changed.length = 0;
    await expect(update.execute('ada', link.id, { title: 'changed', url: 'https://s.lnk.test/loop' })).rejects.toMatchObject({
      errors: [{ name: 'url' }],
    });
    await expect(update.execute('bob', link.id, { title: 'changed' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(remove.execute('bob', link.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(changed).toEqual([]);
    expect((await links.findOfOwner('ada', link.id))?.title).toBe('');
  });
});

describe('redirect cache eviction by the link use cases', () => {
  const setUp = () => {
    const { links, tags } = memoryLinksRepositories();
    // The cache reads the same store the use cases write, as the apps bind them; it forgets nothing but what it is told.
    const lookups = new MemoryRedirectLookup(new RepositoryRedirectLookup(links, domains));
    const resolve = new ResolveRedirectUseCase(lookups, ['s.lnk.test']);
    const slugs = ['aaaaaaa'];
    const generator: SlugGenerator = { generate: () => slugs.shift() as string };
    const getLink = new GetLinkUseCase(links, new LinkViews(tags, domains));
    return {
      resolve,
      create: new CreateLinkUseCase({
        links,
        tags,
        domains,
        quota,
        passwords: hasher,
        slugs: generator,
        ids,
        clock,
        config: { ownHosts: ['s.lnk.test'] },
        changes: lookups,
      }),
      update: new UpdateLinkUseCase({
        links,
        tags,
        domains,
        passwords: hasher,
        clock,
        config: { ownHosts: ['s.lnk.test'] },
        getLink,
        changes: lookups,
      }),
      remove: new DeleteLinkUseCase(links, clock, lookups),
    };
  };

  // Each step is looked up within the cache time of the previous answer: only the eviction can make it show.
  it('answers a created link, its new destination, its new slug and its deletion at once, not after the cache time', async () => {
    const { resolve, create, update, remove } = setUp();
    expect(await resolve.execute('s.lnk.test', 'fresh')).toBeNull();
    const { link } = await create.execute('ada', { url: 'https://example.com/one', slug: 'fresh' });
    expect(await resolve.execute('s.lnk.test', 'fresh')).toMatchObject({ id: link.id, url: 'https://example.com/one' });

    await update.execute('ada', link.id, { url: 'https://example.com/two' });
    expect((await resolve.execute('s.lnk.test', 'fresh'))?.url).toBe('https://example.com/two');

    expect(await resolve.execute('s.lnk.test', 'moved')).toBeNull();
    await update.execute('ada', link.id, { slug: 'moved' });
    expect(await resolve.execute('s.lnk.test', 'fresh')).toBeNull();
    expect((await resolve.execute('s.lnk.test', 'moved'))?.id).toBe(link.id);

    await update.execute('ada', link.id, { status: false });
    expect((await resolve.execute('s.lnk.test', 'moved'))?.status).toBe(false);

    await remove.execute('ada', link.id);
    expect(await resolve.execute('s.lnk.test', 'moved')).toBeNull();
  });

  it('stops answering a link on the default domain once it moves to a custom domain', async () => {
    const { resolve, create, update } = setUp();
    const { link } = await create.execute('ada', { url: 'https://example.com/', slug: 'promo' });
    expect((await resolve.execute('s.lnk.test', 'promo'))?.id).toBe(link.id);
    await update.execute('ada', link.id, { domainId: 'dom-verified' });
    expect(await resolve.execute('s.lnk.test', 'promo')).toBeNull();
  });
});

/** Admits every guess: the allowance is CheckLinkPasswordUseCase's own spec; here the stored hash is. */
class OpenAttempts extends PasswordAttempts {
  admitted = 0;
  async admit() {
    this.admitted++;
    return { succeeded: () => undefined };
  }
  addressKey(address: string): string {
    return clientAddressKey(address);
  }
}

describe('link passwords through the stored link', () => {
  const ip = '203.0.113.7';

  it('sets, changes and clears a password on update, and the redirect lookup checks against what was stored', async () => {
    const { links, create, update } = linkUseCases({ linkChanged: () => undefined });
    const attempts = new OpenAttempts();
    const check = new CheckLinkPasswordUseCase(hasher, attempts);
    const stored = async () => (await links.findForRedirect(null, 'locked')) as RedirectTarget;
    const { link } = await create.execute('ada', { url: 'https://example.com', slug: 'locked' });
    expect(await check.execute(await stored(), undefined, ip)).toBe(true);
    expect(attempts.admitted).toBe(0);

    await update.execute('ada', link.id, { hasPassword: true, password: 'open sesame' });
    expect(await check.execute(await stored(), 'wrong guess', ip)).toBe(false);
    expect(await check.execute(await stored(), undefined, ip)).toBe(false);
    expect(await check.execute(await stored(), 'open sesame', ip)).toBe(true);

    await update.execute('ada', link.id, { password: 'new secret' });
    expect(await check.execute(await stored(), 'open sesame', ip)).toBe(false);
    expect(await check.execute(await stored(), 'new secret', ip)).toBe(true);

    await update.execute('ada', link.id, { hasPassword: false });
    expect((await stored()).passwordHash).toBeNull();
    const before = attempts.admitted;
    expect(await check.execute(await stored(), undefined, ip)).toBe(true);
    expect(attempts.admitted).toBe(before);
  });
});
