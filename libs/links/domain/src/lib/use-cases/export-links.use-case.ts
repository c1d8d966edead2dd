import { LinkRepository } from '../ports/link.repository';
import { LinkViews } from '../services/link-views';
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
    private readonly views: LinkViews,
  ) {}

  async *execute(ownerId: string, batchSize = EXPORT_BATCH): AsyncGenerator<LinkView[]> {
    for (let after: string | null = null; ;) {
      const batch = await this.links.batchOfOwner(ownerId, after, batchSize);
      if (!batch.length) return;
      yield await this.views.of(ownerId, batch);
      if (batch.length < batchSize) return;
      after = batch[batch.length - 1].id;
    }
  }
}
