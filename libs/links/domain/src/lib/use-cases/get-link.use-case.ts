import { found } from '@lnk/shared/kernel';
import { LinkRepository } from '../ports/link.repository';
import { LinkViews } from '../services/link-views';
import { LinkView } from './link.types';

export class GetLinkUseCase {
  constructor(
    private readonly links: LinkRepository,
    private readonly views: LinkViews,
  ) {}

  async execute(ownerId: string, id: string): Promise<LinkView> {
    const [view] = await this.views.of(ownerId, [found(await this.links.findOfOwner(ownerId, id), 'Link')]);
    return view;
  }
}
