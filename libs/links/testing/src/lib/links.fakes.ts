import {
  DeletedLink,
  hasLinkOptions,
  isExpired,
  Link,
  LinkListView,
  LinkProps,
  LinkRepository,
  LinkSort,
  NO_LINK_OPTIONS,
  RedirectTarget,
  redirectOptionsOf,
  Tag,
  TagProps,
  TagRepository,
  TagWithCount,
  VisitClaim,
  VisitLimits,
} from '@lnk/links/domain';
import {
  checkRoomFor,
  Keyset,
  Page,
  PageRequest,
  pageOf,
  pageOfNewestFirst,
  QuotaExceededError,
  UnitOfWork,
  ValidationError,
} from '@lnk/shared/kernel';

// Rows are held as copies of props and every read builds a new entity, as a database would: a use case
// that changes an entity and forgets to save it leaves the stored row as it was, and its test fails.
const copyLink = (p: LinkProps): LinkProps => ({
  ...p,
  tagIds: [...p.tagIds],
  createdAt: new Date(p.createdAt),
  updatedAt: new Date(p.updatedAt),
});
const copyTag = (p: TagProps): TagProps => ({ ...p, createdAt: new Date(p.createdAt), updatedAt: new Date(p.updatedAt) });
// Ids are time-ordered (ObjectId), so "newest first" is id order, as the adapters sort.
const newestFirst = (a: { id: string }, b: { id: string }) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
/** A link's position in a sort, as the adapter answers it: its lowercased title first when sorted by title, its id last. */
const positionIn = (sort: LinkSort, l: LinkProps): Keyset => (sort === 'title' ? [l.title.toLowerCase(), l.id] : [l.id]);
/** Positions compared part by part (code unit order, as the adapter's "C" collation for the titles the tests use). */
function comparePositions(a: Keyset, b: Keyset): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}
/** Whether `a` comes before `b` in the sort (newest first is descending, the others ascending). */
const orderIn = (sort: LinkSort, a: Keyset, b: Keyset): number => (sort === 'newest' ? -comparePositions(a, b) : comparePositions(a, b));
const slugKey = (domainId: string | null, slug: string) => `${domainId ?? ''}/${slug}`;

/**
 * The stored row an update of `p` writes over, as the adapters find it: the owner's own, and (with
 * `unchangedSince`) not written since that time. Null: the update writes nothing.
 */
function storedToUpdate<T extends { ownerId: string; updatedAt: Date }>(
  rows: Map<string, T>,
  p: { id: string; ownerId: string },
  unchangedSince?: Date,
): T | null {
  const stored = rows.get(p.id);
  if (!stored || stored.ownerId !== p.ownerId) return null;
  if (unchangedSince && stored.updatedAt.getTime() !== unchangedSince.getTime()) return null;
  return stored;
}

/** The rows of the links context, shared by its two repositories as the tables are (a tag's links, a link's tags). */
export class LinksMemoryStore {
  readonly links = new Map<string, LinkProps>();
  readonly tags = new Map<string, TagProps>();
}

export class MemoryLinkRepository extends LinkRepository {
  constructor(readonly store = new LinksMemoryStore()) {
    super();
  }

  private read(p: LinkProps): Link {
    // The adapter reads a link's tags in tag id order.
    return new Link({ ...copyLink(p), tagIds: [...p.tagIds].sort() });
  }

  private slugTakenBy(p: LinkProps): boolean {
    return [...this.store.links.values()].some((o) => o.id !== p.id && slugKey(o.domainId, o.slug) === slugKey(p.domainId, p.slug));
  }

  private ofOwner(ownerId: string): LinkProps[] {
    return [...this.store.links.values()].filter((l) => l.ownerId === ownerId);
  }

  async insertWithinQuota(link: Link, limit: number): Promise<void> {
    const p = link.toProps();
    checkRoomFor('links', this.ofOwner(p.ownerId).length, limit);
    if (this.slugTakenBy(p)) throw ValidationError.field('slug', 'slug is already taken on this domain');
    this.store.links.set(p.id, copyLink(p));
  }

  async insertManyWithinQuota(links: Link[], limit: number): Promise<{ taken: string[] }> {
    const props = links.map((l) => l.toProps());
    const taken = props.filter((p) => this.slugTakenBy(p)).map((p) => p.id);
    const written = props.filter((p) => !taken.includes(p.id));
    // The adapter counts only what it writes, and writes nothing when that would pass the limit.
    const used = written.length ? this.ofOwner(props[0].ownerId).length : 0;
    if (written.length && used + written.length > limit) throw new QuotaExceededError('links', used, limit);
    for (const p of written) this.store.links.set(p.id, copyLink(p));
    return { taken };
  }

  async findOfOwner(ownerId: string, id: string): Promise<Link | null> {
    const p = this.store.links.get(id);
    return p && p.ownerId === ownerId ? this.read(p) : null;
  }

  async findManyOfOwner(ownerId: string, ids: string[]): Promise<Link[]> {
    return [...new Set(ids)].sort().flatMap((id) => {
      const p = this.store.links.get(id);
      return p && p.ownerId === ownerId ? [this.read(p)] : [];
    });
  }

  async deleteManyOfOwner(ownerId: string, ids: string[]): Promise<DeletedLink[]> {
    const deleted: DeletedLink[] = [];
    for (const id of new Set(ids)) {
      const p = this.store.links.get(id);
      if (!p || p.ownerId !== ownerId) continue;
      this.store.links.delete(id);
      deleted.push({ id: p.id, domainId: p.domainId, slug: p.slug });
    }
    return deleted;
  }

  async retagManyOfOwner(ownerId: string, ids: string[], add: string[], remove: string[], maxTags: number): Promise<string[]> {
    const found = this.ofOwner(ownerId)
      .filter((l) => ids.includes(l.id))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const next = found.map((l) => ({
      ...l,
      tagIds: [...new Set([...l.tagIds.filter((t) => !remove.includes(t)), ...add])],
      updatedAt: movedOn(l.updatedAt, new Date()),
    }));
    const over = next.filter((l) => l.tagIds.length > maxTags).length;
    if (over > 0) throw ValidationError.field('add', `a link carries at most ${maxTags} tags: ${over} of these links would carry more`);
    for (const l of next) this.store.links.set(l.id, copyLink(l));
    return found.map((l) => l.id);
  }

  async batchOfOwner(ownerId: string, afterId: string | null, limit: number): Promise<Link[]> {
    return this.ofOwner(ownerId)
      .filter((l) => afterId === null || l.id > afterId)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((l) => this.read(l));
  }

  async listOfOwner(ownerId: string, query: string | undefined, page: PageRequest, view: LinkListView = {}): Promise<Page<Link>> {
    return this.pageOfLinks(this.ofOwner(ownerId), query, page, view);
  }

  /** The owner's links that match the search and the view's filters, in its order: a page of them. */
  private pageOfLinks(mine: LinkProps[], query: string | undefined, page: PageRequest, view: LinkListView): Page<Link> {
    const q = query?.toLowerCase();
    const sort = view.sort ?? 'newest';
    const matches = mine
      .filter((l) => !q || `${l.title} ${l.slug} ${l.url}`.toLowerCase().includes(q))
      .filter((l) => view.tagId === undefined || l.tagIds.includes(view.tagId))
      .filter((l) => !view.favorite || l.isFavorite === true)
      .sort((a, b) => orderIn(sort, positionIn(sort, a), positionIn(sort, b)));
    const after = page.after;
    const from = after ? matches.filter((l) => orderIn(sort, positionIn(sort, l), after) > 0) : matches.slice(page.start);
    const found = pageOf(from.slice(0, page.rows), matches.length, page, (l) => positionIn(sort, l));
    return { ...found, items: found.items.map((l) => this.read(l)) };
  }

  async listOfOwnerByExpiry(
    ownerId: string,
    expired: boolean,
    now: Date,
    query: string | undefined,
    page: PageRequest,
    view: LinkListView = {},
  ): Promise<Page<Link>> {
    return this.pageOfLinks(
      this.ofOwner(ownerId).filter((l) => isExpired(l.options ?? NO_LINK_OPTIONS, now) === expired),
      query,
      page,
      view,
    );
  }

  async update(link: Link, unchangedSince?: Date): Promise<boolean> {
    const p = link.toProps();
    const stored = storedToUpdate(this.store.links, p, unchangedSince);
    if (!stored) return false;
    if (this.slugTakenBy(p)) throw ValidationError.field('slug', 'slug is already taken on this domain');
    // Clicks, the creation time and the visits used are not the caller's to change: the adapter writes none of them on update
    // (a visit limit set where there was none starts at 0, one cleared forgets its count).
    const options =
      p.options && hasLinkOptions(p.options)
        ? { ...p.options, visitsUsed: p.options.maxVisits === null || !stored.options?.maxVisits ? 0 : stored.options.visitsUsed }
        : undefined;
    this.store.links.set(
      p.id,
      copyLink({ ...p, options, clicks: stored.clicks, createdAt: stored.createdAt, updatedAt: movedOn(stored.updatedAt, p.updatedAt) }),
    );
    return true;
  }

  async deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    const p = this.store.links.get(id);
    if (!p || p.ownerId !== ownerId) return false;
    return this.store.links.delete(id);
  }

  async countOfOwner(ownerId: string): Promise<number> {
    return this.ofOwner(ownerId).length;
  }

  async countUsingDomain(ownerId: string, domainId: string): Promise<number> {
    return this.ofOwner(ownerId).filter((l) => l.domainId === domainId).length;
  }

  async idsTaggedWith(ownerId: string, tagId: string): Promise<string[]> {
    return this.ofOwner(ownerId)
      .filter((l) => l.tagIds.includes(tagId))
      .map((l) => l.id)
      .sort();
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    for (const l of this.ofOwner(ownerId)) this.store.links.delete(l.id);
  }

  async findForRedirect(domainId: string | null, slug: string): Promise<RedirectTarget | null> {
    const p = [...this.store.links.values()].find((l) => slugKey(l.domainId, l.slug) === slugKey(domainId, slug));
    if (!p) return null;
    return {
      id: p.id,
      ownerId: p.ownerId,
      domainId: p.domainId,
      slug: p.slug,
      url: p.url,
      name: p.title || p.slug,
      status: p.status,
      passwordHash: p.passwordHash,
      options: p.options ? redirectOptionsOf(p.options) : null,
    };
  }

  async addClicks(visitsByLink: Map<string, number>): Promise<void> {
    // A link deleted since its clicks were counted is skipped.
    for (const [id, n] of visitsByLink) {
      const p = this.store.links.get(id);
      if (p) this.store.links.set(id, { ...p, clicks: p.clicks + n });
    }
  }
}

/** The visit counters of the memory links' limits (`options.visitsUsed`), one taker at a time as the database's row lock makes them. */
export class MemoryVisitLimits extends VisitLimits {
  constructor(readonly store = new LinksMemoryStore()) {
    super();
  }

  async claim(linkId: string): Promise<VisitClaim> {
    const p = this.store.links.get(linkId);
    const o = p?.options;
    if (!p || !o || o.maxVisits === null || o.visitsUsed >= o.maxVisits) return 'none';
    this.store.links.set(linkId, { ...p, options: { ...o, visitsUsed: o.visitsUsed + 1 } });
    return o.visitsUsed + 1 >= o.maxVisits ? 'last' : 'taken';
  }

  async hasLeft(linkId: string): Promise<boolean> {
    const o = this.store.links.get(linkId)?.options;
    return !!o && o.maxVisits !== null && o.visitsUsed < o.maxVisits;
  }
}

/** A transaction over the memory store: a failing unit of work leaves its rows as they were before it (as a rollback does). */
export class MemoryLinksUnitOfWork extends UnitOfWork {
  constructor(readonly store: LinksMemoryStore) {
    super();
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const links = new Map(this.store.links);
    const tags = new Map(this.store.tags);
    try {
      return await work();
    } catch (error) {
      this.store.links.clear();
      this.store.tags.clear();
      for (const [id, p] of links) this.store.links.set(id, p);
      for (const [id, p] of tags) this.store.tags.set(id, p);
      throw error;
    }
  }
}

export class MemoryTagRepository extends TagRepository {
  constructor(readonly store = new LinksMemoryStore()) {
    super();
  }

  private withCount(p: TagProps): TagWithCount {
    return { tag: new Tag(copyTag(p)), linkCount: [...this.store.links.values()].filter((l) => l.tagIds.includes(p.id)).length };
  }

  private ofOwner(ownerId: string): TagProps[] {
    return [...this.store.tags.values()].filter((t) => t.ownerId === ownerId).sort(newestFirst);
  }

  /** Names are unique per owner whatever their case (the adapter's index is on lower(name)). */
  private nameTakenBy(p: TagProps): boolean {
    return this.ofOwner(p.ownerId).some((o) => o.id !== p.id && o.name.toLowerCase() === p.name.toLowerCase());
  }

  async insertWithinQuota(tag: Tag, limit: number): Promise<void> {
    const p = tag.toProps();
    checkRoomFor('tags', this.ofOwner(p.ownerId).length, limit);
    if (this.nameTakenBy(p)) throw ValidationError.field('name', 'you already have a tag with this name');
    this.store.tags.set(p.id, copyTag(p));
  }

  async listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<TagWithCount>> {
    const q = query?.toLowerCase();
    const mine = this.ofOwner(ownerId).filter((t) => !q || t.name.toLowerCase().includes(q));
    const found = pageOfNewestFirst(mine, page);
    return { ...found, items: found.items.map((t) => this.withCount(t)) };
  }

  async favoritesOfOwner(ownerId: string): Promise<TagWithCount[]> {
    return this.ofOwner(ownerId)
      .filter((t) => t.isFavorite)
      .map((t) => this.withCount(t));
  }

  async findOfOwner(ownerId: string, id: string): Promise<TagWithCount | null> {
    const p = this.store.tags.get(id);
    return p && p.ownerId === ownerId ? this.withCount(p) : null;
  }

  async findManyOfOwner(ownerId: string, ids: string[]): Promise<Tag[]> {
    return this.ofOwner(ownerId)
      .filter((t) => ids.includes(t.id))
      .map((t) => new Tag(copyTag(t)));
  }

  async findByNamesOfOwner(ownerId: string, names: string[]): Promise<Tag[]> {
    const lower = names.map((n) => n.toLowerCase());
    return this.ofOwner(ownerId)
      .filter((t) => lower.includes(t.name.toLowerCase()))
      .map((t) => new Tag(copyTag(t)));
  }

  async update(tag: Tag, unchangedSince?: Date): Promise<boolean> {
    const p = tag.toProps();
    const stored = storedToUpdate(this.store.tags, p, unchangedSince);
    if (!stored) return false;
    if (this.nameTakenBy(p)) throw ValidationError.field('name', 'you already have a tag with this name');
    // As the adapter: updatedAt always moves on, so a conditional write after this one sees the change.
    const updatedAt = new Date(Math.max(p.updatedAt.getTime(), stored.updatedAt.getTime() + 1));
    this.store.tags.set(p.id, copyTag({ ...p, createdAt: stored.createdAt, updatedAt }));
    return true;
  }

  async deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    const p = this.store.tags.get(id);
    if (!p || p.ownerId !== ownerId) return false;
    this.store.tags.delete(id);
    // The tag comes off every link, as the link_tags rows go with it.
    for (const [linkId, l] of this.store.links)
      if (l.tagIds.includes(id)) this.store.links.set(linkId, { ...l, tagIds: l.tagIds.filter((t) => t !== id) });
    return true;
  }

  async countOfOwner(ownerId: string): Promise<number> {
    return this.ofOwner(ownerId).length;
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    for (const t of this.ofOwner(ownerId)) await this.deleteOfOwner(ownerId, t.id);
  }
}

/** Both repositories of the links context over one store. */
export function memoryLinksRepositories(): { store: LinksMemoryStore; links: MemoryLinkRepository; tags: MemoryTagRepository } {
  const store = new LinksMemoryStore();
  return { store, links: new MemoryLinkRepository(store), tags: new MemoryTagRepository(store) };
}

/** As the adapter writes a link's updatedAt: the new time, or a millisecond past the stored one, whichever is later. */
function movedOn(stored: Date, next: Date): Date {
  return new Date(Math.max(next.getTime(), stored.getTime() + 1));
}
