import { checkEach, Clock, IdGenerator, PasswordHasher, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { checkDestinationUrl } from '../model/destination-url';
import { checkLinkPassword, checkText, MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from '../model/link-fields';
import { Link } from '../model/link.entity';
import { checkLinkOptions, hasLinkOptions, NO_LINK_OPTIONS } from '../model/link-options';
import { checkSlug } from '../model/slug';
import { LinkChanges } from '../ports/link-changes.port';
import { LinkEventSink, withLinkEvent } from '../ports/link-events.port';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkRepository } from '../ports/link.repository';
import { SlugGenerator } from '../ports/slug-generator.port';
import { TagRepository } from '../ports/tag.repository';
import { LinkRules } from '../services/link-rules';
import { LinkFields, LinksConfig, LinkView } from './link.types';

const SLUG_ATTEMPTS = 5;

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
    private readonly events: LinkEventSink | null = null,
  ) {
    this.rules = new LinkRules(domains, tags);
  }

  async execute(ownerId: string, fields: LinkFields): Promise<LinkView> {
    // Every field's own rules at once: a link with several bad fields is told of each.
    const now = this.clock.now();
    const [url, chosenSlug, title, description, password, options] = checkEach(
      () => checkDestinationUrl(fields.url, this.config.ownHosts),
      () => (fields.slug === undefined ? null : checkSlug(fields.slug)),
      () => checkText(fields.title, 'title', MAX_TITLE_LENGTH) ?? '',
      () => checkText(fields.description, 'description', MAX_DESCRIPTION_LENGTH) ?? '',
      () => {
        if (!fields.hasPassword && fields.password !== undefined) throw ValidationError.field('password', 'password is only taken with hasPassword true');
        return fields.hasPassword ? checkLinkPassword(fields.password) : null;
      },
      () => checkLinkOptions(fields, NO_LINK_OPTIONS, now, this.config.ownHosts),
    );
    const passwordHash = password === null ? null : await this.passwords.hash(password);
    const domain = await this.rules.domain(ownerId, fields.domainId);
    const tags = await this.rules.tagsOf(ownerId, fields.tags ?? []);
    const limit = await this.quota.limitFor(ownerId, 'links');

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
        // A link without options has none at all: it is stored and answered as one of the spec.
        ...(hasLinkOptions(options) ? { options } : {}),
      });
      try {
        // The event first: the insert still takes the owner's usage row last (see the links repository).
        await withLinkEvent(this.events, 'link.created', ownerId, async (record) => {
          await record(link, now);
          await this.links.insertWithinQuota(link, limit);
        });
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
