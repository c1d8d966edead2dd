import { Clock, NotFoundError } from '@lnk/shared/kernel';
import { checkTagName, TagWithCount } from '../model/tag.entity';
import { TagRepository } from '../ports/tag.repository';

export class UpdateTagUseCase {
  constructor(
    private readonly tags: TagRepository,
    private readonly clock: Clock,
  ) {}

  async execute(ownerId: string, id: string, fields: { name?: string; isFavorite?: boolean }): Promise<TagWithCount> {
    const found = await this.tags.findOfOwner(ownerId, id);
    if (!found) throw new NotFoundError('Tag');
    found.tag.change({ ...(fields.name !== undefined ? { name: checkTagName(fields.name) } : {}), ...(fields.isFavorite !== undefined ? { isFavorite: fields.isFavorite } : {}) }, this.clock.now());
    await this.tags.update(found.tag);
    return found;
  }
}
