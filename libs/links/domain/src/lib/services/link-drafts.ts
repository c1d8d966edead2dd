import { checkEach, Clock, IdGenerator, PasswordHasher, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { checkDestinationUrl } from '../model/destination-url';
import { checkLinkPassword, checkText, MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from '../model/link-fields';
import { Link } from '../model/link.entity';
import { checkLinkOptions, hasLinkOptions, LinkOptions, NO_LINK_OPTIONS } from '../model/link-options';
import { checkSlug } from '../model/slug';
import { Tag } from '../model/tag.entity';
import { LinkChanges } from '../ports/link-changes.port';
import { LinkDomain, LinkDomains } from '../ports/link-domains.port';
import { LinkRepository } from '../ports/link.repository';
import { SlugGenerator } from '../ports/slug-generator.port';
import { TagRepository } from '../ports/tag.repository';
import type { LinkFields, LinksConfig } from '../use-cases/link.types';
import { LinkRules } from './link-rules';

/** What every way of creating links (one, a bulk batch, an import) needs: given once by the composition. */
export interface LinkCreation {
  links: LinkRepository;
  tags: TagRepository;
  domains: LinkDomains;
  quota: QuotaPolicy;
  passwords: PasswordHasher;
  slugs: SlugGenerator;
  ids: IdGenerator;
  clock: Clock;
  config: LinksConfig;
  /** Told of each short URL that starts answering (a cached "not found" is evicted). */
  changes: LinkChanges;
}

/** A new link's fields, each checked, before it has an id and (unless chosen) a slug. */
export interface LinkDraft {
  url: string;
  /** The caller's slug, or null for a generated one. */
  chosenSlug: string | null;
  title: string;
  description: string;
  status: boolean;
  passwordHash: string | null;
  domain: LinkDomain | null;
  tags: Tag[];
  options: LinkOptions;
  isFavorite: boolean;
}

/** The fields of a draft that need no lookup: what checkFields answers. */
export type CheckedLinkFields = Omit<LinkDraft, 'passwordHash' | 'domain' | 'tags'> & { password: string | null };

/**
 * The rules of a new link, written once for every way links are created (one, a bulk batch, an import):
 * every field's own rules at once, then the lookups (the domain, the tags) and the password's hash; and
 * the link made from a draft with its id and slug.
 */
export class LinkDrafts {
  private readonly rules: LinkRules;

  constructor(private readonly creation: LinkCreation) {
    this.rules = new LinkRules(creation.domains, creation.tags);
  }

  now(): Date {
    return this.creation.clock.now();
  }

  /** Every field's own rules at once (no lookup): a link with several bad fields is told of each. */
  checkFields(fields: LinkFields, now: Date): CheckedLinkFields {
    const [url, chosenSlug, title, description, password, options] = checkEach(
      () => checkDestinationUrl(fields.url, this.creation.config.ownHosts),
      () => (fields.slug === undefined ? null : checkSlug(fields.slug)),
      () => checkText(fields.title, 'title', MAX_TITLE_LENGTH) ?? '',
      () => checkText(fields.description, 'description', MAX_DESCRIPTION_LENGTH) ?? '',
      () => {
        if (!fields.hasPassword && fields.password !== undefined)
          throw ValidationError.field('password', 'password is only taken with hasPassword true');
        return fields.hasPassword ? checkLinkPassword(fields.password) : null;
      },
      () => checkLinkOptions(fields, NO_LINK_OPTIONS, now, this.creation.config.ownHosts),
    );
    return {
      url,
      chosenSlug,
      title,
      description,
      password,
      options,
      status: fields.status ?? true,
      isFavorite: fields.isFavorite ?? false,
    };
  }

  /** A create body's draft: its fields checked, its domain and tags (by id) the owner's, its password hashed. */
  async draft(ownerId: string, fields: LinkFields, now: Date): Promise<LinkDraft> {
    const { password, ...checked } = this.checkFields(fields, now);
    const passwordHash = password === null ? null : await this.creation.passwords.hash(password);
    const domain = await this.rules.domain(ownerId, fields.domainId);
    const tags = await this.rules.tagsOf(ownerId, fields.tags ?? []);
    return { ...checked, passwordHash, domain, tags };
  }

  /** A slug drawn at random (a generated one that collides is drawn again by the caller). */
  generatedSlug(): string {
    return this.creation.slugs.generate();
  }

  /** The link of a draft: a new id, the chosen slug or `slug`. */
  link(ownerId: string, draft: LinkDraft, now: Date, slug = draft.chosenSlug ?? this.creation.slugs.generate()): Link {
    return new Link({
      id: this.creation.ids.next(),
      ownerId,
      domainId: draft.domain?.id ?? null,
      slug,
      url: draft.url,
      title: draft.title,
      description: draft.description,
      status: draft.status,
      passwordHash: draft.passwordHash,
      tagIds: draft.tags.map((t) => t.id),
      isFavorite: draft.isFavorite,
      clicks: 0,
      createdAt: now,
      updatedAt: now,
      // A link without options has none at all: it is stored and answered as one of the spec.
      ...(hasLinkOptions(draft.options) ? { options: draft.options } : {}),
    });
  }
}
