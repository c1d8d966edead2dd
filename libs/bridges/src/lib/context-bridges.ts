import { LinkDomain, LinkDomains } from '@lnk/links/domain';
import { DomainRepository, DomainUsage, DomainVerificationListener } from '@lnk/domains/domain';
import { ClickRecorder, LinkClicked, LinkRepository, PasswordAttempt, PasswordAttempts, ResolveRedirectUseCase, TagRepository, VisitorLocator, VisitorPlace } from '@lnk/links/domain';
import { LoginThrottle } from '@lnk/identity/domain';
import { ClickBuffer, ClickDimensions, LinkClickTotals, StatsLinks } from '@lnk/analytics/domain';

/** Links ask the domains context which of the owner's domains are verified. */
export class DomainsForLinks extends LinkDomains {
  constructor(private readonly domains: DomainRepository) {
    super();
  }

  async verifiedDomainOf(ownerId: string, domainId: string): Promise<LinkDomain | null> {
    const domain = await this.domains.findVerifiedOfOwner(ownerId, domainId);
    return domain ? { id: domain.id, name: domain.name } : null;
  }

  async verifiedDomainByName(name: string): Promise<LinkDomain | null> {
    const domain = await this.domains.findVerifiedByName(name);
    return domain ? { id: domain.id, name: domain.name } : null;
  }

  async namesOf(ownerId: string, domainIds: string[]): Promise<Map<string, string>> {
    const found = await Promise.all(domainIds.map((id) => this.domains.findOfOwner(ownerId, id)));
    return new Map(found.filter((d) => d !== null).map((d) => [d.id, d.name]));
  }
}

/** A domain verified or no longer verified: the redirect cache forgets which domain its host names. */
export class RedirectsOfDomains extends DomainVerificationListener {
  constructor(private readonly redirects: ResolveRedirectUseCase) {
    super();
  }

  verificationChanged(name: string): void {
    this.redirects.forgetHost(name);
  }
}

/** Domains ask the links context whether links still use a domain. */
export class LinksForDomains extends DomainUsage {
  constructor(private readonly links: LinkRepository) {
    super();
  }

  linksUsing(ownerId: string, domainId: string): Promise<number> {
    return this.links.countUsingDomain(ownerId, domainId);
  }
}

/** Analytics adds each link's counted visits to the link's click total. */
export class LinkClickTotalsOfLinks extends LinkClickTotals {
  constructor(private readonly links: LinkRepository) {
    super();
  }

  addVisits(visitsByLink: Map<string, number>): Promise<void> {
    return this.links.addClicks(visitsByLink);
  }
}

/** Statistics filtered by link or tag ask the links context whose they are and which links a tag has. */
export class LinksForStats extends StatsLinks {
  constructor(
    private readonly links: LinkRepository,
    private readonly tags: TagRepository,
  ) {
    super();
  }

  async isOwnersLink(ownerId: string, linkId: string): Promise<boolean> {
    return (await this.links.findOfOwner(ownerId, linkId)) !== null;
  }

  async linksTagged(ownerId: string, tagId: string): Promise<string[] | null> {
    if (!(await this.tags.findOfOwner(ownerId, tagId))) return null;
    return this.links.idsTaggedWith(ownerId, tagId);
  }
}

/**
 * A short URL's clicks go to analytics' buffer (written in batches; recording never waits). Links' event is
 * handed on as it is: the compiler checks here that it is what analytics reads (its ClickToCount), and the
 * redirect's hot path copies nothing.
 */
export class ClicksOfLinks extends ClickRecorder {
  constructor(private readonly buffer: ClickBuffer) {
    super();
  }

  record(click: LinkClicked): void {
    this.buffer.record(click);
  }
}

const COUNTRY_CODE = /^[A-Z]{2}$/;

/**
 * Links with targets ask analytics' click dimensions where a visitor is and on what: the same User-Agent
 * parser and offline country table that statistics count by. iOS and iPadOS are `ios`, Android `android`
 * (phone or tablet), any other desktop browser `desktop`; anything else is no device.
 */
export class VisitorsOfClickDimensions extends VisitorLocator {
  constructor(private readonly dimensions: ClickDimensions) {
    super();
  }

  locate(userAgent: string | undefined, ip: string): VisitorPlace {
    const traits = this.dimensions.traitsOf(userAgent, ip, undefined);
    const device = traits.os === 'iOS' ? 'ios' : traits.os === 'Android' ? 'android' : traits.device === 'desktop' ? 'desktop' : null;
    return { device, country: COUNTRY_CODE.test(traits.country) ? traits.country : null };
  }
}

/**
 * Guesses at a link's password, for the throttle behind ThrottledPasswordAttempts: a run of wrong ones
 * from one address (an IPv6 /64) is refused for the window. Failures at a link from all addresses together
 * only slow its guesses down, each request by at most maxDelayMs (a wait of its own, not a lock on the
 * link): refusing them let anyone lock every visitor out (issue 27), as sign-in treats an account. Both
 * apps that answer short URLs use this rule; the public budget per address (RATE_LIMIT_PUBLIC) bounds
 * how many requests can be waiting.
 */
export const LINK_PASSWORD_THROTTLE = {
  rules: [
    { prefix: 'link-ip:', maxFailures: 10, freeFailures: 3, forgivenBySuccess: true },
    { prefix: 'link:', maxFailures: Infinity, freeFailures: 20, forgivenBySuccess: false },
  ],
  windowMs: 15 * 60_000,
  delayStepMs: 100,
  maxDelayMs: 1000,
};

/** Link password attempts counted by the same kind of throttle the sign-in uses. */
export class ThrottledPasswordAttempts extends PasswordAttempts {
  constructor(private readonly throttle: LoginThrottle) {
    super();
  }

  admit(keys: string[]): Promise<PasswordAttempt> {
    return this.throttle.admit(keys);
  }

  addressKey(address: string): string {
    return this.throttle.addressKey(address);
  }
}
