import { Clock, IdGenerator, PasswordHasher, PageRequest, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { clientAddressKey, clockReading } from '@lnk/shared/testing';
import { memoryLinksRepositories, MemoryRedirectLookup, MemoryVisitLimits } from '@lnk/links/testing';
import { checkLinkOptions, checkTargets, checkUtm, NO_LINK_OPTIONS } from './model/link-options';
import { LinkDomains } from './ports/link-domains.port';
import { SlugGenerator } from './ports/slug-generator.port';
import { VisitorLocator } from './ports/visitor-locator.port';
import { BotDetector } from './ports/bot-detector.port';
import { ClickRecorder } from './ports/click-recorder.port';
import { PasswordAttempts } from './ports/password-attempts.port';
import { AnswerShortUrlUseCase } from './use-cases/answer-short-url.use-case';
import { CheckLinkPasswordUseCase } from './use-cases/check-link-password.use-case';
import { CreateLinkUseCase } from './use-cases/create-link.use-case';
import { GetLinkUseCase } from './use-cases/get-link.use-case';
import { ListLinksUseCase } from './use-cases/list-links.use-case';
import { RepositoryLinkLists } from './services/repository-link-lists';
import { ResolveRedirectUseCase } from './use-cases/resolve-redirect.use-case';
import { RepositoryRedirectLookup } from './services/repository-redirect-lookup';
import { UpdateLinkUseCase } from './use-cases/update-link.use-case';
import { LinkViews } from './services/link-views';

const OWN = ['s.lnk.test'];
let now = new Date('2026-02-03T04:05:06.007Z');
const clock: Clock = clockReading(() => now);
let n = 0;
const ids: IdGenerator = { next: () => (++n).toString(16).padStart(24, '0') };
const quota: QuotaPolicy = { limitFor: async () => 100 };
const hasher: PasswordHasher = { hash: async (p) => `hashed:${p}`, verify: async (p, h) => h === `hashed:${p}` };
const domains: LinkDomains = { verifiedDomainOf: async () => null, namesOf: async () => new Map(), verifiedDomainByName: async () => null };

/** The field names a check refuses, or [] when it accepts. */
const refused = (check: () => unknown): string[] => {
  try {
    check();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors.map((e) => e.name);
    throw error;
  }
  return [];
};

describe('link option rules', () => {
  const check = (fields: Record<string, unknown>) => refused(() => checkLinkOptions(fields, NO_LINK_OPTIONS, now, OWN));

  it.each([301, 302, 307, 308])('accepts redirectType %p', (type) => expect(check({ redirectType: type })).toEqual([]));
  it.each([303, 300, '301', null, 0])('refuses redirectType %p', (type) => expect(check({ redirectType: type })).toEqual(['redirectType']));

  it('takes expiresAt in the future as an ISO date-time with its offset, null clearing', () => {
    expect(checkLinkOptions({ expiresAt: '2026-02-04T00:00:00Z' }, NO_LINK_OPTIONS, now, OWN).expiresAt).toEqual(
      new Date('2026-02-04T00:00:00Z'),
    );
    expect(checkLinkOptions({ expiresAt: '2026-02-03T06:00:00+01:00' }, NO_LINK_OPTIONS, now, OWN).expiresAt).toEqual(
      new Date('2026-02-03T05:00:00Z'),
    );
    expect(
      checkLinkOptions({ expiresAt: null }, { ...NO_LINK_OPTIONS, expiresAt: new Date('2030-01-01T00:00:00Z') }, now, OWN).expiresAt,
    ).toBeNull();
  });
  // "Now" is already the past: a link that expires as it is made would never answer.
  it.each([
    '2026-02-03T04:05:06.007Z',
    '2020-01-01T00:00:00Z',
    '2026-02-04',
    '2026-02-04T00:00:00',
    'tomorrow',
    1893456000000,
    '2026-13-01T00:00:00Z',
    '2027-02-30T00:00:00Z',
  ])('refuses expiresAt %p', (value) => expect(check({ expiresAt: value })).toEqual(['expiresAt']));

  it('checks expiredUrl as url is, under its own name', () => {
    expect(checkLinkOptions({ expiredUrl: 'https://Example.com/over' }, NO_LINK_OPTIONS, now, OWN).expiredUrl).toBe(
      'https://example.com/over',
    );
    expect(check({ expiredUrl: 'https://s.lnk.test/x' })).toEqual(['expiredUrl']);
    expect(check({ expiredUrl: 'javascript:alert(1)' })).toEqual(['expiredUrl']);
  });

  it.each([0, -1, 1.5, '10', 2 ** 31])('refuses maxVisits %p', (value) => expect(check({ maxVisits: value })).toEqual(['maxVisits']));

  it('takes the five UTM fields, trimmed; an empty object clears', () => {
    expect(checkUtm({ source: ' news ', medium: 'email', campaign: 'c', term: 't', content: 'x' })).toEqual({
      source: 'news',
      medium: 'email',
      campaign: 'c',
      term: 't',
      content: 'x',
    });
    expect(checkUtm({})).toBeNull();
    expect(refused(() => checkUtm({ source: '', id: 'x', medium: 'a\r\nb', campaign: 'x'.repeat(201) }))).toEqual([
      'utm.source',
      'utm.id',
      'utm.medium',
      'utm.campaign',
    ]);
    expect(refused(() => checkUtm(['x']))).toEqual(['utm']);
  });

  it('takes targets by device and upper-case country, each destination checked as url is', () => {
    expect(checkTargets({ device: { ios: 'https://apps.apple.com/x' }, country: { GB: 'https://example.co.uk' } }, OWN)).toEqual({
      device: { ios: 'https://apps.apple.com/x' },
      country: { GB: 'https://example.co.uk/' },
    });
    expect(checkTargets({ device: {}, country: {} }, OWN)).toBeNull();
    expect(
      refused(() =>
        checkTargets(
          {
            device: { watch: 'https://example.com', ios: 'ftp://x' },
            country: { gb: 'https://a.example', GBR: 'https://a.example', ZZ: 'https://a.example', US: 'https://s.lnk.test/' },
            os: {},
          },
          OWN,
        ),
      ),
    ).toEqual([
      'targets.device.watch',
      'targets.device.ios',
      'targets.country.gb',
      'targets.country.GBR',
      'targets.country.ZZ',
      'targets.country.US',
      'targets.os',
    ]);
  });

  it('tells of every bad option at once', () => {
    expect(check({ redirectType: 303, expiresAt: '2000-01-01T00:00:00Z', maxVisits: 0, targets: { device: { ios: 'nope' } } })).toEqual([
      'redirectType',
      'expiresAt',
      'maxVisits',
      'targets.device.ios',
    ]);
  });

  // A new limit counts from 0, a changed one keeps what was used, a cleared one forgets it.
  it('starts, keeps and forgets the visits used as the limit is set, changed and cleared', () => {
    const limited = { ...NO_LINK_OPTIONS, maxVisits: 10, visitsUsed: 7 };
    expect(checkLinkOptions({ maxVisits: 20 }, limited, now, OWN)).toMatchObject({ maxVisits: 20, visitsUsed: 7 });
    expect(checkLinkOptions({ maxVisits: null }, limited, now, OWN)).toMatchObject({ maxVisits: null, visitsUsed: 0 });
    expect(checkLinkOptions({ maxVisits: 5 }, NO_LINK_OPTIONS, now, OWN)).toMatchObject({ maxVisits: 5, visitsUsed: 0 });
  });
});

describe('link options through the use cases and the stored link', () => {
  const setUp = () => {
    const { store, links, tags } = memoryLinksRepositories();
    const slugs = ['aaaaaaa', 'bbbbbbb', 'ccccccc', 'ddddddd'];
    const generator: SlugGenerator = { generate: () => slugs.shift() as string };
    const getLink = new GetLinkUseCase(links, new LinkViews(tags, domains));
    const lookups = new MemoryRedirectLookup(new RepositoryRedirectLookup(links, domains));
    const resolve = new ResolveRedirectUseCase(lookups, ['s.lnk.test']);
    const clicks: string[] = [];
    const recorder: ClickRecorder = { record: (c) => clicks.push(`${c.kind}:${c.linkId}`) };
    const bots: BotDetector = { isBot: () => false };
    const visitors: VisitorLocator = { locate: () => ({ device: null, country: null }) };
    const attempts: PasswordAttempts = { admit: async () => ({ succeeded: () => undefined }), addressKey: clientAddressKey };
    return {
      store,
      clicks,
      create: new CreateLinkUseCase({
        links,
        tags,
        domains,
        quota,
        passwords: hasher,
        slugs: generator,
        ids,
        clock,
        config: { ownHosts: OWN },
        changes: lookups,
      }),
      update: new UpdateLinkUseCase({
        links,
        tags,
        domains,
        passwords: hasher,
        clock,
        config: { ownHosts: OWN },
        getLink,
        changes: lookups,
      }),
      list: new ListLinksUseCase(new RepositoryLinkLists(links, domains, clock)),
      answer: new AnswerShortUrlUseCase({
        resolve,
        checkPassword: new CheckLinkPasswordUseCase(hasher, attempts),
        clicks: recorder,
        bots,
        clock,
        config: { defaultDomainName: 's.lnk.test', notFoundRedirectUrl: null },
        visitLimits: new MemoryVisitLimits(store),
        visitors,
      }),
    };
  };
  const visit = (slug: string) => ({ method: 'GET', host: 's.lnk.test', slug, rawQuery: '', userAgent: 'Mozilla/5.0', ip: '203.0.113.7' });
  afterEach(() => {
    now = new Date('2026-02-03T04:05:06.007Z');
  });

  // A client sending only the spec's fields must get the spec's link: no options stored at all.
  it('stores no options for a link created with the spec’s fields only', async () => {
    const { create, store } = setUp();
    const { link } = await create.execute('ada', { url: 'https://example.com' });
    expect(store.links.get(link.id)?.options).toBeUndefined();
    expect(link.options).toEqual(NO_LINK_OPTIONS);
  });

  it('keeps options an update does not name, and changes those it does', async () => {
    const { create, update } = setUp();
    const { link } = await create.execute('ada', { url: 'https://example.com', redirectType: 301, maxVisits: 5, utm: { source: 'x' } });
    const updated = await update.execute('ada', link.id, { title: 'T', utm: null, redirectType: 308 });
    expect(updated.link.options).toMatchObject({ redirectType: 308, maxVisits: 5, utm: null });
    await expect(update.execute('ada', link.id, { expiresAt: '2020-01-01T00:00:00Z' })).rejects.toMatchObject({
      errors: [{ name: 'expiresAt' }],
    });
  });

  it('answers a created link with maxVisits for exactly that many visits, then lists it as expired', async () => {
    const { create, answer, list, clicks } = setUp();
    const { link } = await create.execute('ada', { url: 'https://example.com', slug: 'limited', maxVisits: 2 });
    await create.execute('ada', { url: 'https://example.com', slug: 'plain' });
    const answers = await Promise.all([1, 2, 3, 4].map(() => answer.execute(visit('limited'))));
    expect(answers.map((a) => a.kind)).toEqual(['redirect', 'redirect', 'expired', 'expired']);
    expect(clicks).toEqual([`visit:${link.id}`, `visit:${link.id}`]);
    const slugsOf = async (expired: boolean) =>
      (await list.execute('ada', undefined, PageRequest.of(0, 10), { expired })).page.items.map((l) => l.slug);
    expect(await slugsOf(true)).toEqual(['limited']);
    expect(await slugsOf(false)).toEqual(['plain']);
  });

  it('lists a link past its expiresAt as expired, and answers it expired, once its time has come', async () => {
    const { create, answer, list } = setUp();
    await create.execute('ada', {
      url: 'https://example.com',
      slug: 'soon',
      expiresAt: '2026-02-03T05:00:00Z',
      expiredUrl: 'https://example.com/over',
    });
    const expiredSlugs = async () =>
      (await list.execute('ada', undefined, PageRequest.of(0, 10), { expired: true })).page.items.map((l) => l.slug);
    expect(await expiredSlugs()).toEqual([]);
    expect(await answer.execute(visit('soon'))).toMatchObject({ kind: 'redirect' });
    now = new Date('2026-02-03T05:00:00Z');
    expect(await expiredSlugs()).toEqual(['soon']);
    expect(await answer.execute(visit('soon'))).toEqual({ kind: 'expired', redirectTo: 'https://example.com/over' });
  });
});
