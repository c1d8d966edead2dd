import { checkEach, clientAddressKey, Clock, IdGenerator, NotFoundError, Page, PageRequest, PasswordHasher, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { checkDestinationUrl } from '../model/destination-url';
import { Link } from '../model/link.entity';
import { checkSlug } from '../model/slug';
import { Tag } from '../model/tag.entity';
import { LinkChanges, LinkDomain, LinkDomains, SlugGenerator } from '../ports/link-ports';
import { LinkRepository } from '../ports/link.repository';
import { TagRepository } from '../ports/tag.repository';

export interface LinksConfig {
  /** Host names of the service's own short domains: destinations may not point at them. */
  ownHosts: string[];
}

export const MAX_TITLE_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 1000;
// Anyone may guess at a protected link from many addresses: at least 8 characters keeps the per-link cap meaningful.
const MIN_LINK_PASSWORD = 8;
const MAX_LINK_PASSWORD = 72;
const SLUG_ATTEMPTS = 5;

export interface LinkFields {
  url?: string;
  slug?: string;
  title?: string;
  description?: string;
  status?: boolean;
  domainId?: string | null;
  hasPassword?: boolean;
  password?: string;
  tags?: string[];
}

/** A link with what its responses show besides its own fields. */
export interface LinkView {
  link: Link;
  domain: LinkDomain | null;
  tags: Tag[];
}

function checkText(value: string | undefined, field: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (value.length > max) throw ValidationError.field(field, `${field} must be at most ${max} characters`);
  return value.trim();
}

/** Checked when a password is set; links protected by a shorter one before the minimum rose keep it. */
function checkLinkPassword(password: string | undefined): string {
  if (!password || password.length < MIN_LINK_PASSWORD || password.length > MAX_LINK_PASSWORD) {
    throw ValidationError.field('password', `password must be ${MIN_LINK_PASSWORD} to ${MAX_LINK_PASSWORD} characters when hasPassword is true`);
  }
  return password;
}

/** Shared checks of create and update: domain, tags. */
class LinkRules {
  constructor(
    private readonly domains: LinkDomains,
    private readonly tags: TagRepository,
  ) {}

  async domain(ownerId: string, domainId: string | null | undefined): Promise<LinkDomain | null> {
    if (!domainId) return null;
    const domain = await this.domains.verifiedDomainOf(ownerId, domainId);
    if (!domain) throw ValidationError.field('domainId', 'domainId must be a verified domain of yours');
    return domain;
  }

  async tagsOf(ownerId: string, ids: string[]): Promise<Tag[]> {
    const unique = [...new Set(ids)];
    if (unique.length > 50) throw ValidationError.field('tags', 'a link carries at most 50 tags');
    const found = await this.tags.findManyOfOwner(ownerId, unique);
    const missing = unique.filter((id) => !found.some((t) => t.id === id));
    if (missing.length) throw ValidationError.field('tags', `unknown tag: ${missing.join(', ')}`);
    return unique.map((id) => found.find((t) => t.id === id) as Tag);
  }
}

export class CreateLinkUseCase {
  private readonly rules: LinkRules;

  constructor(
    private readonly links: LinkRepository,
    tags: TagRepository,
    domains: LinkDomains,
    private readonly quota: QuotaPolicy,
    private readonly passwords: PasswordHasher,
    private readonly slugs: SlugGenerator,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly config: LinksConfig,
    private readonly changes: LinkChanges,
  ) {
    this.rules = new LinkRules(domains, tags);
  }

  async execute(ownerId: string, fields: LinkFields): Promise<LinkView> {
    // Every field's own rules at once: a link with several bad fields is told of each.
    const [url, chosenSlug, title, description, password] = checkEach(
      () => checkDestinationUrl(fields.url, this.config.ownHosts),
      () => (fields.slug === undefined ? null : checkSlug(fields.slug)),
      () => checkText(fields.title, 'title', MAX_TITLE_LENGTH) ?? '',
      () => checkText(fields.description, 'description', MAX_DESCRIPTION_LENGTH) ?? '',
      () => {
        if (!fields.hasPassword && fields.password !== undefined) throw ValidationError.field('password', 'password is only taken with hasPassword true');
        return fields.hasPassword ? checkLinkPassword(fields.password) : null;
      },
    );
    const passwordHash = password === null ? null : await this.passwords.hash(password);
    const domain = await this.rules.domain(ownerId, fields.domainId);
    const tags = await this.rules.tagsOf(ownerId, fields.tags ?? []);
    const limit = await this.quota.limitFor(ownerId, 'links');
    const now = this.clock.now();

    for (let attempt = 1; ; attempt++) {
      const link = new Link({
        id: this.ids.next(),
        ownerId,
        domainId: domain?.id ?? null,
        slug: chosenSlug ?? this.slugs.generate(),
        url,
        title,
        description,
        status: fields.status ?? true,
        passwordHash,
        tagIds: tags.map((t) => t.id),
        clicks: 0,
        createdAt: now,
        updatedAt: now,
      });
      try {
        await this.links.insertWithinQuota(link, limit);
        // The short URL answers at once, in every instance: a "not found" cached before it existed is evicted.
        this.changes.linkChanged(link.domainId, link.slug);
        return { link, domain, tags };
      } catch (error) {
        // A generated slug that collided is drawn again; a chosen one is the caller's to change.
        const collided = error instanceof ValidationError && error.errors.some((e) => e.name === 'slug');
        if (!collided || chosenSlug !== null || attempt >= SLUG_ATTEMPTS) throw error;
      }
    }
  }
}

export class GetLinkUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly tags: TagRepository,
    private readonly domains: LinkDomains,
  ) {}

  async execute(ownerId: string, id: string): Promise<LinkView> {
    const link = await this.links.findOfOwner(ownerId, id);
    if (!link) throw new NotFoundError('Link');
    const [tags, names] = await Promise.all([this.tags.findManyOfOwner(ownerId, link.tagIds), link.domainId ? this.domains.namesOf(ownerId, [link.domainId]) : new Map<string, string>()]);
    const domain = link.domainId ? { id: link.domainId, name: names.get(link.domainId) ?? '' } : null;
    return { link, domain, tags: link.tagIds.map((tid) => tags.find((t) => t.id === tid)).filter((t): t is Tag => !!t) };
  }
}

export class ListLinksUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly domains: LinkDomains,
  ) {}

  async execute(ownerId: string, query: string | undefined, page: PageRequest): Promise<{ page: Page<Link>; domainNames: Map<string, string> }> {
    const result = await this.links.listOfOwner(ownerId, query?.trim() || undefined, page);
    const domainIds = [...new Set(result.items.map((l) => l.domainId).filter((d): d is string => d !== null))];
    return { page: result, domainNames: domainIds.length ? await this.domains.namesOf(ownerId, domainIds) : new Map() };
  }
}

export class UpdateLinkUseCase {
  private readonly rules: LinkRules;

  constructor(
    private readonly links: LinkRepository,
    private readonly tags: TagRepository,
    domains: LinkDomains,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
    private readonly config: LinksConfig,
    private readonly getLink: GetLinkUseCase,
    private readonly changes: LinkChanges,
  ) {
    this.rules = new LinkRules(domains, tags);
  }

  async execute(ownerId: string, id: string, fields: LinkFields): Promise<LinkView> {
    const link = await this.links.findOfOwner(ownerId, id);
    if (!link) throw new NotFoundError('Link');
    const changes: Parameters<Link['change']>[0] = {};
    // Every field's own rules at once: a change with several bad fields is told of each.
    const [url, slug, title, description] = checkEach(
      () => (fields.url === undefined ? undefined : checkDestinationUrl(fields.url, this.config.ownHosts)),
      () => (fields.slug === undefined ? undefined : checkSlug(fields.slug)),
      () => checkText(fields.title, 'title', MAX_TITLE_LENGTH),
      () => checkText(fields.description, 'description', MAX_DESCRIPTION_LENGTH),
      () => {
        if (fields.hasPassword === false && fields.password !== undefined) throw ValidationError.field('password', 'password is only taken with hasPassword true');
      },
    );
    if (url !== undefined) changes.url = url;
    if (slug !== undefined) changes.slug = slug;
    if (title !== undefined) changes.title = title;
    if (description !== undefined) changes.description = description;
    if (fields.status !== undefined) changes.status = fields.status;
    if (fields.domainId !== undefined) changes.domainId = (await this.rules.domain(ownerId, fields.domainId))?.id ?? null;
    if (fields.tags !== undefined) changes.tagIds = (await this.rules.tagsOf(ownerId, fields.tags)).map((t) => t.id);
    if (fields.hasPassword === false) {
      if (fields.password !== undefined) throw ValidationError.field('password', 'password is only taken with hasPassword true');
      changes.passwordHash = null;
    } else if (fields.hasPassword === true || fields.password !== undefined) {
      if (fields.password === undefined && link.hasPassword) {
        // hasPassword stays true and the password stays as it is.
      } else {
        changes.passwordHash = await this.passwords.hash(checkLinkPassword(fields.password));
      }
    }
    const before = { domainId: link.domainId, slug: link.slug };
    link.change(changes, this.clock.now());
    await this.links.update(link);
    // The short URL answers the new destination (or stops answering) at once.
    this.changes.linkChanged(before.domainId, before.slug);
    this.changes.linkChanged(link.domainId, link.slug);
    return this.getLink.execute(ownerId, id);
  }
}

export class DeleteLinkUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly clock: Clock,
    private readonly changes: LinkChanges,
  ) {}

  async execute(ownerId: string, id: string): Promise<Date> {
    const link = await this.links.findOfOwner(ownerId, id);
    if (!link || !(await this.links.deleteOfOwner(ownerId, id))) throw new NotFoundError('Link');
    this.changes.linkChanged(link.domainId, link.slug);
    return this.clock.now();
  }
}

/** One admitted attempt at a link's password: it counts as a failure unless it is taken back as a success. */
export interface PasswordAttempt {
  succeeded(): void;
}

/**
 * Attempts at link passwords, counted per key before the password is checked (so parallel guesses see
 * each other): past a key's allowance, admit rejects with RateLimitedError.
 */
export abstract class PasswordAttempts {
  abstract admit(keys: string[]): Promise<PasswordAttempt>;
}

/**
 * Checks the password of a protected link. Guesses are counted per link and address (an IPv6 address
 * as its /64), so one visitor's run of wrong passwords is refused, and per link across all addresses,
 * so guessing from many addresses is capped too.
 */
export class CheckLinkPasswordUseCase {
  constructor(
    private readonly passwords: PasswordHasher,
    private readonly attempts: PasswordAttempts,
  ) {}

  async execute(target: { id: string; passwordHash: string | null }, password: string | undefined, ip: string): Promise<boolean> {
    if (!target.passwordHash) return true;
    const attempt = await this.attempts.admit(linkPasswordKeys(target.id, ip));
    const ok = typeof password === 'string' && password.length <= 1024 && (await this.passwords.verify(password, target.passwordHash));
    if (ok) attempt.succeeded();
    return ok;
  }
}

/** The keys a guess at a link's password counts against: the link, and the link from one address. */
export function linkPasswordKeys(linkId: string, ip: string): string[] {
  return [`link:${linkId}`, `link-ip:${linkId}|${clientAddressKey(ip)}`];
}
