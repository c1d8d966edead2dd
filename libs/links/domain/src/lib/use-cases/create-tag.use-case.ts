import { Clock, IdGenerator, QuotaPolicy } from '@lnk/shared/kernel';
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
