import { Page, PageRequest } from '@lnk/shared/kernel';
import { TagWithCount } from '../model/tag.entity';
import { TagRepository } from '../ports/tag.repository';

export class ListTagsUseCase {
  constructor(private readonly tags: TagRepository) {}

  execute(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<TagWithCount>> {
    return this.tags.listOfOwner(ownerId, query?.trim() || undefined, page);
  }
}
