import { Clock, IdGenerator, NotFoundError, Page, PageRequest, QuotaPolicy } from '@lnk/shared/kernel';
import { checkTagName, Tag, TagWithCount } from '../model/tag.entity';
import { TagRepository } from '../ports/tag.repository';

export class CreateTagUseCase {
  constructor(
    private readonly tags: TagRepository,
    private readonly quota: QuotaPolicy,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(ownerId: string, fields: { name: string; isFavorite?: boolean }): Promise<TagWithCount> {
    const name = checkTagName(fields.name);
    const now = this.clock.now();
    const tag = new Tag({ id: this.ids.next(), ownerId, name, isFavorite: fields.isFavorite ?? false, createdAt: now, updatedAt: now });
    await this.tags.insertWithinQuota(tag, await this.quota.limitFor(ownerId, 'tags'));
    return { tag, linkCount: 0 };
  }
}

export class ListTagsUseCase {
  constructor(private readonly tags: TagRepository) {}

  execute(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<TagWithCount>> {
    return this.tags.listOfOwner(ownerId, query?.trim() || undefined, page);
  }
}

export class FavoriteTagsUseCase {
  constructor(private readonly tags: TagRepository) {}

  execute(ownerId: string): Promise<TagWithCount[]> {
    return this.tags.favoritesOfOwner(ownerId);
  }
}

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

export class DeleteTagUseCase {
  constructor(private readonly tags: TagRepository) {}

  async execute(ownerId: string, id: string): Promise<void> {
    if (!(await this.tags.deleteOfOwner(ownerId, id))) throw new NotFoundError('Tag');
  }
}
