import { Clock } from '@lnk/shared/kernel';
import { LinkChanges } from '../ports/link-changes.port';
import { LinkEventSink, recordLinkEvents, withLinkEvent } from '../ports/link-events.port';
import { LinkRepository } from '../ports/link.repository';
import { BulkOutcome, checkCount } from '../services/link-batches';

/**
 * DELETE /user/link/bulk: the caller's links among up to 100 ids, in one statement; each deleted link's short URL stops answering at once.
 */
export class BulkDeleteLinksUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly changes: LinkChanges,
    private readonly clock: Clock,
    private readonly events: LinkEventSink | null = null,
  ) {}

  async execute(ownerId: string, ids: string[]): Promise<BulkOutcome[]> {
    checkCount('ids', ids.length);
    const unique = [...new Set(ids)];
    const deleted = await withLinkEvent(this.events, 'link.deleted', ownerId, async () => {
      if (!this.events?.events.wants('link.deleted', ownerId)) return this.links.deleteManyOfOwner(ownerId, unique);
      // A receiver is told what each deleted link was: read in the deletion's transaction, before it.
      const before = await this.links.findManyOfOwner(ownerId, unique);
      const gone = await this.links.deleteManyOfOwner(ownerId, unique);
      const goneIds = new Set(gone.map((l) => l.id));
      await recordLinkEvents(
        this.events,
        'link.deleted',
        ownerId,
        before.filter((l) => goneIds.has(l.id)),
        this.clock.now(),
      );
      return gone;
    });
    // As one deletion: every instance's redirect cache forgets each short URL.
    for (const link of deleted) this.changes.linkChanged(link.domainId, link.slug);
    const gone = new Set(deleted.map((l) => l.id));
    return ids.map((id) => ({ id, found: gone.has(id) }));
  }
}
