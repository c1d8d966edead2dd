import { checkEach, Clock, found, NotFoundError, PasswordHasher, PreconditionFailedError, ValidationError } from '@lnk/shared/kernel';
import { checkDestinationUrl } from '../model/destination-url';
import { checkLinkPassword, checkText, MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from '../model/link-fields';
import { Link } from '../model/link.entity';
import { checkLinkOptions } from '../model/link-options';
import { checkSlug } from '../model/slug';
import { LinkChanges } from '../ports/link-changes.port';
import { LinkEventSink, withLinkEvent } from '../ports/link-events.port';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkRepository } from '../ports/link.repository';
import { TagRepository } from '../ports/tag.repository';
import { LinkRules } from '../services/link-rules';
import { GetLinkUseCase } from './get-link.use-case';
import { LinkFields, LinksConfig, LinkView } from './link.types';

const sendsOptions = (f: LinkFields) =>
  f.redirectType !== undefined ||
  f.expiresAt !== undefined ||
  f.expiredUrl !== undefined ||
  f.maxVisits !== undefined ||
  f.utm !== undefined ||
  f.targets !== undefined;

/** What updating a link needs: the link rules' lookups, the password hasher, and who is told of the change. */
export interface LinkUpdating {
  links: LinkRepository;
  tags: TagRepository;
  domains: LinkDomains;
  passwords: PasswordHasher;
  clock: Clock;
  config: LinksConfig;
  getLink: GetLinkUseCase;
  changes: LinkChanges;
  events?: LinkEventSink | null;
}

export class UpdateLinkUseCase {
  private readonly rules: LinkRules;

  private readonly events: LinkEventSink | null;

  constructor(private readonly deps: LinkUpdating) {
    this.events = deps.events ?? null;
    this.rules = new LinkRules(deps.domains, deps.tags);
  }

  /**
   * `expected`: the change is made only if the link is still as the caller last read it (If-Match): it is
   * asked of the link as read now, and the write is conditional on no other write coming since that read,
   * so of two clients changing one link from the same version, the second is refused (PRECONDITION_FAILED),
   * never silently overwrites the first.
   */
  async execute(ownerId: string, id: string, fields: LinkFields, expected?: (current: LinkView) => boolean): Promise<LinkView> {
    // With a condition, the link as the caller sees it (its tags and domain too) is what it is asked of.
    const current = expected ? await this.deps.getLink.execute(ownerId, id) : null;
    if (current && expected && !expected(current)) throw new PreconditionFailedError('link');
    const link = current?.link ?? found(await this.deps.links.findOfOwner(ownerId, id), 'Link');
    const readAt = link.updatedAt;
    const changes: Parameters<Link['change']>[0] = {};
    // Every field's own rules at once: a change with several bad fields is told of each.
    const now = this.deps.clock.now();
    const [url, slug, title, description, , options] = checkEach(
      () => (fields.url === undefined ? undefined : checkDestinationUrl(fields.url, this.deps.config.ownHosts)),
      () => (fields.slug === undefined ? undefined : checkSlug(fields.slug)),
      () => checkText(fields.title, 'title', MAX_TITLE_LENGTH),
      () => checkText(fields.description, 'description', MAX_DESCRIPTION_LENGTH),
      () => {
        if (fields.password === undefined) return;
        if (fields.hasPassword === false) throw ValidationError.field('password', 'password is only taken with hasPassword true');
        checkLinkPassword(fields.password);
      },
      () => (sendsOptions(fields) ? checkLinkOptions(fields, link.options, now, this.deps.config.ownHosts) : undefined),
    );
    if (url !== undefined) changes.url = url;
    if (slug !== undefined) changes.slug = slug;
    if (title !== undefined) changes.title = title;
    if (description !== undefined) changes.description = description;
    if (fields.status !== undefined) changes.status = fields.status;
    if (fields.isFavorite !== undefined) changes.isFavorite = fields.isFavorite;
    if (options !== undefined) changes.options = options;
    if (fields.domainId !== undefined) changes.domainId = (await this.rules.domain(ownerId, fields.domainId))?.id ?? null;
    if (fields.tags !== undefined) changes.tagIds = (await this.rules.tagsOf(ownerId, fields.tags)).map((t) => t.id);
    if (fields.hasPassword === false) {
      if (fields.password !== undefined) throw ValidationError.field('password', 'password is only taken with hasPassword true');
      changes.passwordHash = null;
    } else if (fields.hasPassword === true || fields.password !== undefined) {
      if (fields.password === undefined && link.hasPassword) {
        // hasPassword stays true and the password stays as it is.
      } else {
        changes.passwordHash = await this.deps.passwords.hash(checkLinkPassword(fields.password));
      }
    }
    const before = { domainId: link.domainId, slug: link.slug };
    link.change(changes, now);
    await withLinkEvent(this.events, 'link.updated', link.ownerId, async (record) => {
      // Not saved: another write came since the read (with a condition), or the link is gone.
      if (!(await this.deps.links.update(link, expected ? readAt : undefined)))
        throw expected ? new PreconditionFailedError('link') : new NotFoundError('Link');
      await record(link, now);
    });
    // The short URL answers the new destination (or stops answering) at once.
    this.deps.changes.linkChanged(before.domainId, before.slug);
    this.deps.changes.linkChanged(link.domainId, link.slug);
    return this.deps.getLink.execute(ownerId, id);
  }
}
