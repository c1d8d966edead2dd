import { Clock, PasswordHasher, RateLimitedError } from '@lnk/shared/kernel';
import { LinkClicked } from '../model/link-clicked.event';
import { clientAddressKey, clockReading } from '@lnk/shared/testing';
import { LinkDomain, LinkDomains } from '../ports/link-domains.port';
import { LinkRepository, RedirectTarget } from '../ports/link.repository';
import { BotDetector } from '../ports/bot-detector.port';
import { ClickRecorder } from '../ports/click-recorder.port';
import { AnswerShortUrlUseCase, destinationWith, ShortUrlRequest } from './answer-short-url.use-case';
import { PasswordAttempt, PasswordAttempts } from '../ports/password-attempts.port';
import { CheckLinkPasswordUseCase } from './check-link-password.use-case';
import { MemoryRedirectLookup } from '@lnk/links/testing';
import { ResolveRedirectUseCase } from './resolve-redirect.use-case';
import { RepositoryRedirectLookup } from '../services/repository-redirect-lookup';
import { VisitClaim, VisitLimits } from '../ports/visit-limits.port';
import { VisitorLocator, VisitorPlace } from '../ports/visitor-locator.port';
import { RedirectOptions } from '../ports/link.repository';

/** Links by (domain, slug); copies on read and write, counts lookups. */
class MemoryRedirects {
  readonly rows = new Map<string, RedirectTarget>();
  lookups = 0;
  put(target: RedirectTarget): void {
    this.rows.set(`${target.domainId ?? ''}/${target.slug}`, { ...target });
  }
  async findForRedirect(domainId: string | null, slug: string): Promise<RedirectTarget | null> {
    this.lookups++;
    const row = this.rows.get(`${domainId ?? ''}/${slug}`);
    return row ? { ...row } : null;
  }
}

class RecordedClicks extends ClickRecorder {
  readonly clicks: LinkClicked[] = [];
  record(click: LinkClicked): void {
    this.clicks.push({ ...click });
  }
}

/** The port's contract, not isbot's list: whatever says "bot" is one. */
class WordBots extends BotDetector {
  isBot(userAgent: string | undefined): boolean {
    return /bot/i.test(userAgent ?? '');
  }
}

/** At most `cap` admitted attempts per key; a success takes its attempt back. */
class CappedAttempts extends PasswordAttempts {
  private readonly counts = new Map<string, number>();
  constructor(private readonly cap: number) {
    super();
  }
  async admit(keys: string[]): Promise<PasswordAttempt> {
    if (keys.some((k) => (this.counts.get(k) ?? 0) >= this.cap)) throw new RateLimitedError(42);
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    return { succeeded: () => keys.forEach((k) => this.counts.set(k, (this.counts.get(k) ?? 1) - 1)) };
  }
  addressKey(address: string): string {
    return clientAddressKey(address);
  }
}

/** Counters per link, as the database keeps them: a claim takes one while some are left. */
class CountedLimits extends VisitLimits {
  readonly used = new Map<string, number>();
  claims = 0;
  constructor(readonly limits = new Map<string, number>()) {
    super();
  }
  async claim(linkId: string): Promise<VisitClaim> {
    this.claims++;
    const used = this.used.get(linkId) ?? 0;
    const max = this.limits.get(linkId) ?? 0;
    if (used >= max) return 'none';
    this.used.set(linkId, used + 1);
    return used + 1 >= max ? 'last' : 'taken';
  }
  async hasLeft(linkId: string): Promise<boolean> {
    return (this.used.get(linkId) ?? 0) < (this.limits.get(linkId) ?? 0);
  }
}

/** The port's contract: device and country by a table keyed on the User-Agent and the address. */
class TableVisitors extends VisitorLocator {
  asked = 0;
  locate(userAgent: string | undefined, ip: string): VisitorPlace {
    this.asked++;
    const device = userAgent?.includes('iPhone')
      ? 'ios'
      : userAgent?.includes('Android')
        ? 'android'
        : userAgent?.includes('X11')
          ? 'desktop'
          : null;
    const country = ({ '81.2.69.160': 'GB', '8.8.8.8': 'US' } as Record<string, string>)[ip] ?? null;
    return { device, country };
  }
}

const hasher: PasswordHasher = { hash: async (p) => `hashed:${p}`, verify: async (p, h) => h === `hashed:${p}` };
const at = new Date('2026-11-23T10:00:00.000Z');
const clock: Clock = clockReading(() => at);
const target = (over: Partial<RedirectTarget> = {}): RedirectTarget => ({
  id: 'l1',
  ownerId: 'ada',
  domainId: null,
  slug: 'promo',
  url: 'https://example.com/landing?ref=site&keep=1',
  name: 'Spring promo',
  status: true,
  passwordHash: null,
  ...over,
});

let now = at;
const movingClock: Clock = clockReading(() => now);

function setUp(options: { notFoundRedirectUrl?: string | null; customDomains?: LinkDomain[]; passwordCap?: number; clock?: Clock } = {}) {
  const repository = new MemoryRedirects();
  const verified = new Map((options.customDomains ?? []).map((d) => [d.name, d]));
  const domains = { verifiedDomainByName: async (name: string) => verified.get(name) ?? null } as unknown as LinkDomains;
  const lookups = new MemoryRedirectLookup(new RepositoryRedirectLookup(repository as unknown as LinkRepository, domains));
  const resolve = new ResolveRedirectUseCase(lookups, ['s.lnk.test']);
  const clicks = new RecordedClicks();
  const limits = new CountedLimits();
  const visitors = new TableVisitors();
  const answer = new AnswerShortUrlUseCase({
    resolve,
    checkPassword: new CheckLinkPasswordUseCase(hasher, new CappedAttempts(options.passwordCap ?? 100)),
    clicks,
    bots: new WordBots(),
    clock: options.clock ?? clock,
    config: {
      defaultDomainName: 's.lnk.test',
      notFoundRedirectUrl: options.notFoundRedirectUrl ?? null,
    },
    visitLimits: limits,
    visitors,
  });
  return { repository, lookups, clicks, answer, limits, visitors };
}

const request = (over: Partial<ShortUrlRequest> = {}): ShortUrlRequest => ({
  method: 'GET',
  host: 's.lnk.test',
  slug: 'promo',
  rawQuery: '',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
  ip: '203.0.113.7',
  ...over,
});

describe('AnswerShortUrlUseCase', () => {
  it('redirects to the destination and counts one visit with the link, its owner, the default domain name and the time', async () => {
    const { repository, clicks, answer } = setUp();
    repository.put(target());
    expect(await answer.execute(request())).toEqual({ kind: 'redirect', location: 'https://example.com/landing?ref=site&keep=1' });
    expect(clicks.clicks).toEqual([
      {
        linkId: 'l1',
        ownerId: 'ada',
        domainId: null,
        linkName: 'Spring promo',
        domainName: 's.lnk.test',
        at,
        utmSource: '',
        utmMedium: '',
        utmCampaign: '',
        kind: 'visit',
        referer: undefined,
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
        ip: '203.0.113.7',
        trigger: 'link',
      },
    ]);
  });

  // Statistics derive the dimensions (referrer host, country, device...) off this path: the event carries the raw values.
  it('hands the visit’s raw Referer, User-Agent and address on with the event', async () => {
    const { repository, clicks, answer } = setUp();
    repository.put(target());
    await answer.execute(request({ referer: 'https://news.example/item?id=1', ip: '81.2.69.160' }));
    expect(clicks.clicks[0]).toMatchObject({
      referer: 'https://news.example/item?id=1',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      ip: '81.2.69.160',
      trigger: 'link',
    });
  });

  it('counts a visit through the QR code (its marker in the query) as trigger qr, and keeps the marker from the destination', async () => {
    const { repository, clicks, answer } = setUp();
    repository.put(target());
    expect(await answer.execute(request({ rawQuery: 'lnk_qr=1' }))).toEqual({
      kind: 'redirect',
      location: 'https://example.com/landing?ref=site&keep=1',
    });
    expect(await answer.execute(request({ rawQuery: 'lnk_qr=1&utm_source=poster' }))).toEqual({
      kind: 'redirect',
      location: 'https://example.com/landing?ref=site&keep=1&utm_source=poster',
    });
    expect(clicks.clicks.map((c) => [c.trigger, c.utmSource])).toEqual([
      ['qr', ''],
      ['qr', 'poster'],
    ]);
  });

  it(
    'answers a cached link synchronously through answer() (the hot path makes no ' +
      'promise), and a first lookup through a promise, counting each visit once',
    async () => {
      const { repository, clicks, answer } = setUp();
      repository.put(target());
      const first = answer.answer(request());
      expect(first).toBeInstanceOf(Promise);
      expect(await first).toEqual({ kind: 'redirect', location: 'https://example.com/landing?ref=site&keep=1' });
      const cached = answer.answer(request());
      expect(cached).toEqual({ kind: 'redirect', location: 'https://example.com/landing?ref=site&keep=1' });
      expect(answer.answer(request({ method: 'HEAD' }))).toEqual(cached);
      expect(clicks.clicks.map((c) => c.kind)).toEqual(['visit', 'visit']);
      expect(answer.answer(request({ method: 'POST' }))).toBeInstanceOf(Promise);
    },
  );

  it('redirects to the new destination at once after a change, query or not', async () => {
    const { repository, lookups, answer } = setUp();
    repository.put(target());
    expect(await answer.execute(request())).toMatchObject({ location: 'https://example.com/landing?ref=site&keep=1' });
    repository.put(target({ url: 'https://example.com/moved' }));
    lookups.linkChanged(null, 'promo');
    expect(await answer.execute(request())).toEqual({ kind: 'redirect', location: 'https://example.com/moved' });
    expect(await answer.execute(request({ rawQuery: 'a=1' }))).toEqual({ kind: 'redirect', location: 'https://example.com/moved?a=1' });
  });

  it('merges the request query into the destination, the request winning on a clash, keeping repeated parameters', async () => {
    const { repository, answer } = setUp();
    repository.put(target());
    const result = await answer.execute(request({ rawQuery: 'ref=mail&tag=a&tag=b' }));
    expect(result).toEqual({ kind: 'redirect', location: 'https://example.com/landing?keep=1&ref=mail&tag=a&tag=b' });
  });

  // Statistics normalise UTM values themselves (length, the per-day cap): the use case hands them on as sent, decoded.
  it('takes the UTM values from the query as the visitor sent them', async () => {
    const { repository, clicks, answer } = setUp();
    repository.put(target());
    await answer.execute(request({ rawQuery: 'utm_source=News+Letter&utm_medium=e%2Dmail&utm_campaign=%20Spring%20&utm_term=x' }));
    expect(clicks.clicks[0]).toMatchObject({ utmSource: 'News Letter', utmMedium: 'e-mail', utmCampaign: ' Spring ' });
  });

  // A HEAD is a link checker or a preview, not a visitor: counting it would inflate the statistics.
  it('answers HEAD like GET without counting it', async () => {
    const { repository, clicks, answer } = setUp();
    repository.put(target());
    expect(await answer.execute(request({ method: 'HEAD' }))).toMatchObject({ kind: 'redirect' });
    expect(clicks.clicks).toEqual([]);
  });

  // Crawlers and link-preview fetchers follow every link they see: redirected, never counted.
  it('redirects a bot without counting it', async () => {
    const { repository, clicks, answer } = setUp();
    repository.put(target());
    expect(await answer.execute(request({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' }))).toMatchObject({ kind: 'redirect' });
    expect(clicks.clicks).toEqual([]);
  });

  it('names the custom domain in the click of a link on it, and finds the slug in that domain’s namespace only', async () => {
    const { repository, clicks, answer } = setUp({ customDomains: [{ id: 'd1', name: 'go.example.com' }] });
    repository.put(target({ id: 'l2', domainId: 'd1', url: 'https://example.com/custom' }));
    expect(await answer.execute(request({ host: 'go.example.com' }))).toEqual({ kind: 'redirect', location: 'https://example.com/custom' });
    expect(clicks.clicks[0]).toMatchObject({ linkId: 'l2', domainId: 'd1', domainName: 'go.example.com' });
    expect(await answer.execute(request())).toEqual({ kind: 'not-found' });
  });

  it('answers not found for an unknown slug, a turned-off link and a slug no link can have', async () => {
    const { repository, clicks, answer } = setUp();
    repository.put(target({ slug: 'off', status: false }));
    expect(await answer.execute(request({ slug: 'nothing' }))).toEqual({ kind: 'not-found' });
    expect(await answer.execute(request({ slug: 'off' }))).toEqual({ kind: 'not-found' });
    // Not even looked up: a path with dots, slashes or percent signs is never a slug.
    const before = repository.lookups;
    for (const slug of ['../etc', 'a%2Fb', 'x'.repeat(65), ''])
      expect(await answer.execute(request({ slug }))).toEqual({ kind: 'not-found' });
    expect(repository.lookups).toBe(before);
    expect(clicks.clicks).toEqual([]);
  });

  // A verified custom domain belongs to its owner: the operator's not-found page must not take its visitors.
  it('sends an unknown short URL of the default domain to the not-found redirect, never one of a custom domain', async () => {
    const { answer } = setUp({ notFoundRedirectUrl: 'https://lnk.example/start', customDomains: [{ id: 'd1', name: 'go.example.com' }] });
    expect(await answer.execute(request({ slug: 'nothing' }))).toEqual({ kind: 'not-found', redirectTo: 'https://lnk.example/start' });
    expect(await answer.execute(request({ slug: 'nothing', host: 'go.example.com' }))).toEqual({ kind: 'not-found' });
    // Nor one of a host that is neither the service's nor a verified domain: it has no short URLs at all.
    expect(await answer.execute(request({ slug: 'nothing', host: 'elsewhere.example.net' }))).toEqual({ kind: 'not-found' });
  });

  // A destination stored before destinations were checked as now: CR/LF would split the Location header.
  it('answers an unusable destination, uncounted, rather than a redirect no header can carry', async () => {
    const { repository, clicks, answer } = setUp();
    repository.put(target({ url: 'https://example.com/\r\nSet-Cookie: a=b' }));
    expect(await answer.execute(request())).toEqual({ kind: 'unusable-destination' });
    repository.put(target({ slug: 'js', url: 'javascript:alert(1)' }));
    expect(await answer.execute(request({ slug: 'js' }))).toEqual({ kind: 'unusable-destination' });
    expect(clicks.clicks).toEqual([]);
  });

  describe('a protected link', () => {
    const locked = () => target({ passwordHash: 'hashed:open sesame 1' });

    it('asks for the password on GET and HEAD, without counting or revealing the destination', async () => {
      const { repository, clicks, answer } = setUp();
      repository.put(locked());
      expect(await answer.execute(request())).toEqual({ kind: 'password-form', slug: 'promo', status: 200 });
      expect(await answer.execute(request({ method: 'HEAD' }))).toEqual({ kind: 'password-form', slug: 'promo', status: 200 });
      expect(clicks.clicks).toEqual([]);
    });

    it('counts a wrong password as a failure and asks again with 401', async () => {
      const { repository, clicks, answer } = setUp();
      repository.put(locked());
      expect(await answer.execute(request({ method: 'POST', password: 'guess' }))).toEqual({
        kind: 'password-form',
        slug: 'promo',
        status: 401,
        error: 'That password is not right.',
      });
      expect(await answer.execute(request({ method: 'POST' }))).toMatchObject({ kind: 'password-form', status: 401 });
      expect(clicks.clicks.map((c) => c.kind)).toEqual(['passwordFailed', 'passwordFailed']);
    });

    it('goes on to the destination with the query merged after the right password, counting the pass and the visit', async () => {
      const { repository, clicks, answer } = setUp();
      repository.put(locked());
      const result = await answer.execute(request({ method: 'POST', password: 'open sesame 1', rawQuery: 'ref=mail&utm_source=news' }));
      expect(result).toEqual({ kind: 'password-accepted', location: 'https://example.com/landing?keep=1&ref=mail&utm_source=news' });
      expect(clicks.clicks.map((c) => [c.kind, c.utmSource])).toEqual([
        ['passwordPassed', 'news'],
        ['visit', 'news'],
      ]);
    });

    // Guessing: past the link's allowance the form answers 429 with the time to wait, and no password is tried.
    it('refuses guesses past the allowance with 429 and the time to wait', async () => {
      const { repository, answer } = setUp({ passwordCap: 2 });
      repository.put(locked());
      await answer.execute(request({ method: 'POST', password: 'guess 1' }));
      await answer.execute(request({ method: 'POST', password: 'guess 2' }));
      const refused = await answer.execute(request({ method: 'POST', password: 'open sesame 1' }));
      expect(refused).toEqual({
        kind: 'password-form',
        slug: 'promo',
        status: 429,
        error: 'Too many wrong passwords; try again later.',
        retryAfterSeconds: 42,
      });
    });

    it('answers not found to a password posted for an unknown link or one without a password', async () => {
      const { repository, clicks, answer } = setUp({ notFoundRedirectUrl: 'https://lnk.example/start' });
      repository.put(target({ slug: 'open' }));
      expect(await answer.execute(request({ method: 'POST', slug: 'open', password: 'x' }))).toEqual({ kind: 'not-found' });
      expect(await answer.execute(request({ method: 'POST', slug: 'nothing', password: 'x' }))).toEqual({ kind: 'not-found' });
      expect(clicks.clicks).toEqual([]);
    });
  });
});

describe('AnswerShortUrlUseCase: link options (issue 18)', () => {
  const options = (over: Partial<RedirectOptions> = {}): RedirectOptions => ({
    redirectType: 302,
    expiresAt: null,
    expiredUrl: null,
    maxVisits: null,
    utm: null,
    targets: null,
    ...over,
  });
  const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile Safari';
  const ANDROID = 'Mozilla/5.0 (Linux; Android 14) Mobile Chrome';
  afterEach(() => {
    now = at;
  });

  // A plain link must stay on the hot path: no visitor lookup, no counter, the cached answer as before.
  it('answers a link without options as before: 302 without a status, no counter, no visitor lookup', async () => {
    const { repository, answer, limits, visitors } = setUp();
    repository.put(target({ options: null }));
    await answer.execute(request());
    expect(answer.answer(request())).toEqual({ kind: 'redirect', location: 'https://example.com/landing?ref=site&keep=1' });
    expect([limits.claims, visitors.asked]).toEqual([0, 0]);
  });

  it('answers at the link’s redirect type', async () => {
    const { repository, answer } = setUp();
    for (const type of [301, 307, 308] as const) {
      repository.put(target({ slug: `t${type}`, options: options({ redirectType: type }) }));
      expect(await answer.execute(request({ slug: `t${type}` }))).toMatchObject({
        kind: 'redirect',
        status: type,
        location: 'https://example.com/landing?ref=site&keep=1',
      });
    }
  });

  // The rule of the issue: an expired link never reaches its destination and never counts.
  it(
    'answers an expired link with its expiredUrl or the expired page, never ' + 'the destination, never counted (GET, HEAD, password post)',
    async () => {
      const { repository, clicks, answer, limits } = setUp({ clock: movingClock });
      repository.put(target({ options: options({ expiresAt: at.getTime() + 1000, expiredUrl: 'https://example.com/over' }) }));
      repository.put(target({ slug: 'bare', options: options({ expiresAt: at.getTime() + 1000, maxVisits: 5 }) }));
      repository.put(
        target({ slug: 'locked', passwordHash: 'hashed:open sesame 1', options: options({ expiresAt: at.getTime() + 1000 }) }),
      );
      limits.limits.set('l1', 5);
      expect(await answer.execute(request())).toMatchObject({ kind: 'redirect', location: 'https://example.com/landing?ref=site&keep=1' });
      clicks.clicks.length = 0;
      now = new Date(at.getTime() + 1000); // the very moment it expires
      const claimsBefore = limits.claims;
      expect(await answer.execute(request())).toEqual({ kind: 'expired', redirectTo: 'https://example.com/over' });
      expect(await answer.execute(request({ rawQuery: 'a=1' }))).toEqual({ kind: 'expired', redirectTo: 'https://example.com/over' });
      expect(await answer.execute(request({ method: 'HEAD' }))).toEqual({ kind: 'expired', redirectTo: 'https://example.com/over' });
      expect(await answer.execute(request({ slug: 'bare' }))).toEqual({ kind: 'expired' });
      expect(await answer.execute(request({ slug: 'locked' }))).toEqual({ kind: 'expired' });
      expect(await answer.execute(request({ slug: 'locked', method: 'POST', password: 'open sesame 1' }))).toEqual({ kind: 'expired' });
      expect(clicks.clicks).toEqual([]);
      expect(limits.claims).toBe(claimsBefore); // an expired link takes no visit from its limit either
    },
  );

  it('lets exactly maxVisits counted visits reach the destination, then answers as expired; HEAD and bots take none', async () => {
    const { repository, clicks, answer, limits } = setUp();
    repository.put(target({ options: options({ maxVisits: 3, expiredUrl: 'https://example.com/sold-out' }) }));
    limits.limits.set('l1', 3);
    const answers = await Promise.all(Array.from({ length: 10 }, () => answer.execute(request())));
    expect(answers.filter((a) => a.kind === 'redirect')).toHaveLength(3);
    expect(answers.filter((a) => a.kind === 'expired')).toEqual(
      Array(7).fill({ kind: 'expired', redirectTo: 'https://example.com/sold-out' }),
    );
    expect(clicks.clicks.map((c) => c.kind)).toEqual(['visit', 'visit', 'visit']);
    expect(await answer.execute(request({ method: 'HEAD' }))).toMatchObject({ kind: 'expired' });
    expect(await answer.execute(request({ userAgent: 'Googlebot' }))).toMatchObject({ kind: 'expired' });
  });

  it('does not take a visit for a HEAD or a bot while visits are left', async () => {
    const { repository, answer, limits } = setUp();
    repository.put(target({ options: options({ maxVisits: 1 }) }));
    limits.limits.set('l1', 1);
    expect(await answer.execute(request({ method: 'HEAD' }))).toMatchObject({ kind: 'redirect' });
    expect(await answer.execute(request({ userAgent: 'Googlebot' }))).toMatchObject({ kind: 'redirect' });
    expect(limits.used.get('l1') ?? 0).toBe(0);
    expect(await answer.execute(request())).toMatchObject({ kind: 'redirect' });
    expect(await answer.execute(request())).toEqual({ kind: 'expired' });
  });

  it('takes the visit of a protected link with a limit after the right password, and answers expired once they are used', async () => {
    const { repository, clicks, answer, limits } = setUp();
    repository.put(target({ passwordHash: 'hashed:open sesame 1', options: options({ maxVisits: 1 }) }));
    limits.limits.set('l1', 1);
    expect(await answer.execute(request({ method: 'POST', password: 'open sesame 1' }))).toMatchObject({ kind: 'password-accepted' });
    expect(await answer.execute(request({ method: 'POST', password: 'open sesame 1' }))).toEqual({ kind: 'expired' });
    expect(clicks.clicks.map((c) => c.kind)).toEqual(['passwordPassed', 'visit']);
  });

  it('picks the destination by country first, then device, then url', async () => {
    const { repository, answer } = setUp();
    repository.put(
      target({
        options: options({
          targets: {
            country: { GB: 'https://example.co.uk/' },
            device: {
              ios: 'https://apps.apple.com/app/x',
              android: 'https://play.google.com/store/x',
              desktop: 'https://example.com/desktop',
            },
          },
        }),
      }),
    );
    const go = async (userAgent: string | undefined, ip: string) =>
      ((await answer.execute(request({ userAgent, ip }))) as { location: string }).location;
    expect(await go(IPHONE, '81.2.69.160')).toBe('https://example.co.uk/');
    expect(await go(IPHONE, '8.8.8.8')).toBe('https://apps.apple.com/app/x');
    expect(await go(ANDROID, '203.0.113.7')).toBe('https://play.google.com/store/x');
    expect(await go('Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', '203.0.113.7')).toBe('https://example.com/desktop');
    expect(await go(undefined, '203.0.113.7')).toBe('https://example.com/landing?ref=site&keep=1');
  });

  it(
    'adds the link’s UTM values to the destination (replacing its own), the ' + 'request’s query winning, and counts the visit with them',
    async () => {
      const { repository, clicks, answer } = setUp();
      repository.put(
        target({
          url: 'https://example.com/landing?utm_source=old&keep=1',
          options: options({ utm: { source: 'newsletter', medium: 'email', campaign: 'spring' } }),
        }),
      );
      expect(await answer.execute(request())).toEqual({
        kind: 'redirect',
        status: 302,
        location: 'https://example.com/landing?keep=1&utm_source=newsletter&utm_medium=email&utm_campaign=spring',
      });
      expect(await answer.execute(request({ rawQuery: 'utm_source=poster&x=1' }))).toEqual({
        kind: 'redirect',
        status: 302,
        location: 'https://example.com/landing?keep=1&utm_medium=email&utm_campaign=spring&utm_source=poster&x=1',
      });
      expect(clicks.clicks.map((c) => [c.utmSource, c.utmMedium, c.utmCampaign])).toEqual([
        ['newsletter', 'email', 'spring'],
        ['poster', 'email', 'spring'],
      ]);
    },
  );
});

describe('destinationWith', () => {
  it('writes the destination as ASCII (punycode host, percent-encoded path) so Location can carry it', () => {
    expect(destinationWith('https://bücher.example/straße', '')).toBe('https://xn--bcher-kva.example/stra%C3%9Fe');
  });
  it('refuses what is not an http(s) URL', () => {
    expect(destinationWith('ftp://example.com/', '')).toBeNull();
    expect(destinationWith('not a url', '')).toBeNull();
  });
});
