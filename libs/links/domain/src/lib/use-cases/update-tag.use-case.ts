import { Clock, found, NotFoundError, PreconditionFailedError } from '@lnk/shared/kernel';
import { checkTagName, TagWithCount } from '../model/tag.entity';
import { TagRepository } from '../ports/tag.repository';

export class UpdateTagUseCase {
  constructor(
    private readonly tags: TagRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * `expected`: the change is made only if the tag is still as the caller last read it (If-Match): it is
   * asked of the tag as read now, and the write is conditional on no other write coming since that read,
   * so of two clients changing one tag from the same version, the second is refused (PRECONDITION_FAILED),
   * never silently overwrites the first.
   */
  async execute(
    ownerId: string,
    id: string,
    fields: { name?: string; isFavorite?: boolean },
    expected?: (current: TagWithCount) => boolean,
  ): Promise<TagWithCount> {
    const owned = found(await this.tags.findOfOwner(ownerId, id), 'Tag');
    if (expected && !expected(owned)) throw new PreconditionFailedError('tag');
    const readAt = owned.tag.updatedAt;
    owned.tag.change(
      {
        ...(fields.name !== undefined ? { name: checkTagName(fields.name) } : {}),
        ...(fields.isFavorite !== undefined ? { isFavorite: fields.isFavorite } : {}),
      },
      this.clock.now(),
    );
    // Not written: another write came since the read (with a condition), or the tag is gone.
    if (!(await this.tags.update(owned.tag, expected ? readAt : undefined)))
      throw expected ? new PreconditionFailedError('tag') : new NotFoundError('Tag');
    // As stored now (its linkCount too), so the answer's ETag is the one a later If-Match is checked against.
    return found(await this.tags.findOfOwner(ownerId, id), 'Tag');
  }
}
