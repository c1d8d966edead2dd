import { Clock, NotFoundError } from '@lnk/shared/kernel';
import { LinkChanges } from '../ports/link-changes.port';
import { LinkRepository } from '../ports/link.repository';

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
