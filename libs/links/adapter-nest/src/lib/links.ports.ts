import { LinkChanges, LinkDomains, LinkEvents, LinkLists, LinkRepository, SlugGenerator, TagRepository } from '@lnk/links/domain';
import { Clock, IdGenerator, PasswordHasher, QuotaPolicy, UnitOfWork } from '@lnk/shared/kernel';
import type { Token } from '@lnk/shared/http';

/**
 * Every port the links use cases need, by the name the app binds it under (LinksPorts), each provided in
 * LinksModule under its abstract class: the use cases are built from them by class, and the app's
 * composition root binds them all in one typed object, so a port left unbound does not compile.
 */
export const LINKS_PORTS = {
  links: LinkRepository,
  tags: TagRepository,
  /** The domains context's verified domains, through a bridge. */
  domains: LinkDomains,
  /** Billing's limits. */
  quota: QuotaPolicy,
  /** Link passwords' hashes. */
  passwords: PasswordHasher,
  slugs: SlugGenerator,
  ids: IdGenerator,
  clock: Clock,
  /** Told of each short URL whose redirect may have changed: the redirect lookup's cache, on every instance. */
  changes: LinkChanges,
  /** The webhooks' outbox, recorded in the change's unit of work. */
  events: LinkEvents,
  unitOfWork: UnitOfWork,
  /** Lists of an owner's links: the app puts its cache of answers in front (and wires its invalidation). */
  lists: LinkLists,
};

/** What the app binds each of LINKS_PORTS to. */
export type LinksPorts = { readonly [K in keyof typeof LINKS_PORTS]: (typeof LINKS_PORTS)[K] extends Token<infer T> ? T : never };
