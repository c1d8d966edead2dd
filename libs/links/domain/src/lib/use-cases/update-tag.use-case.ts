import { Clock, found } from '@lnk/shared/kernel';
import { checkTagName, TagWithCount } from '../model/tag.entity';
import { TagRepository } from '../ports/tag.repository';

export class UpdateTagUseCase {
  constructor(
    private readonly tags: TagRepository,
    private readonly clock: Clock,
  ) {}

  async execute(ownerId: string, id: string, fields: { name?: string; isFavorite?: boolean }): Promise<TagWithCount> {
    const owned = found(await this.tags.findOfOwner(ownerId, id), 'Tag');
    owned.tag.change({ ...(fields.name !== undefined ? { name: checkTagName(fields.name) } : {}), ...(fields.isFavorite !== undefined ? { isFavorite: fields.isFavorite } : {}) }, this.clock.now());
    await this.tags.update(owned.tag);
    return owned;
  }
}
