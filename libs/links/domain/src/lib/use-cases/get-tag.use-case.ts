import { found } from '@lnk/shared/kernel';
import { TagWithCount } from '../model/tag.entity';
import { TagRepository } from '../ports/tag.repository';

/** One tag of the owner's, with its link count (NOT_FOUND for another account's). */
export class GetTagUseCase {
  constructor(private readonly tags: TagRepository) {}

  async execute(ownerId: string, id: string): Promise<TagWithCount> {
    return found(await this.tags.findOfOwner(ownerId, id), 'Tag');
  }
}
