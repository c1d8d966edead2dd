import { Clock, found, NotFoundError } from '@lnk/shared/kernel';
import { LinkChanges } from '../ports/link-changes.port';
import { LinkRepository } from '../ports/link.repository';
import { LinkEventSink, withLinkEvent } from '../ports/link-events.port';

export class DeleteLinkUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly clock: Clock,
    private readonly changes: LinkChanges,
    private readonly events: LinkEventSink | null = null,
  ) {}

  async execute(ownerId: string, id: string): Promise<Date> {
    const link = found(await this.links.findOfOwner(ownerId, id), 'Link');
    const now = this.clock.now();
    await withLinkEvent(this.events, 'link.deleted', ownerId, async (record) => {
      if (!(await this.links.deleteOfOwner(ownerId, id))) throw new NotFoundError('Link');
      await record(link, now);
    });
    this.changes.linkChanged(link.domainId, link.slug);
    return now;
  }
}
