import { TagWithCount } from '../model/tag.entity';
import { TagRepository } from '../ports/tag.repository';

export class FavoriteTagsUseCase {
  constructor(private readonly tags: TagRepository) {}

  execute(ownerId: string): Promise<TagWithCount[]> {
    return this.tags.favoritesOfOwner(ownerId);
  }
}
