import { Tag } from '../model/tag.entity';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkRepository } from '../ports/link.repository';
import { TagRepository } from '../ports/tag.repository';
import { LinkView } from './link.types';

/** Links per read of an export: one batch is held at a time, whatever the account holds. */
export const EXPORT_BATCH = 1000;

/**
 * GET /user/link/export: every link of the owner with its tags, domain and clicks, oldest first, in keyset
 * batches by id (each read starts after the last id of the one before: no offset to walk, and a link
 * created meanwhile is read once or not at all). The consumer asks for the next batch when it has
 * written the one before.
 */
export class ExportLinksUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly tags: TagRepository,
    private readonly domains: LinkDomains,
  ) {}

  async *execute(ownerId: string, batchSize = EXPORT_BATCH): AsyncGenerator<LinkView[]> {
    for (let after: string | null = null; ; ) {
      const batch = await this.links.batchOfOwner(ownerId, after, batchSize);
      if (!batch.length) return;
      const tagIds = [...new Set(batch.flatMap((l) => l.tagIds))];
      const domainIds = [...new Set(batch.map((l) => l.domainId).filter((d): d is string => d !== null))];
      const [tags, names] = await Promise.all([this.tags.findManyOfOwner(ownerId, tagIds), domainIds.length ? this.domains.namesOf(ownerId, domainIds) : new Map<string, string>()]);
      const tagById = new Map(tags.map((t) => [t.id, t]));
      yield batch.map((link) => ({
        link,
        domain: link.domainId ? { id: link.domainId, name: names.get(link.domainId) ?? '' } : null,
        tags: link.tagIds.map((id) => tagById.get(id)).filter((t): t is Tag => !!t),
      }));
      if (batch.length < batchSize) return;
      after = batch[batch.length - 1].id;
    }
  }
}
