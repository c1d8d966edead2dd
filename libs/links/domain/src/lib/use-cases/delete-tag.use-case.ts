import { NotFoundError } from '@lnk/shared/kernel';
import { TagRepository } from '../ports/tag.repository';

export class DeleteTagUseCase {
  constructor(private readonly tags: TagRepository) {}

  async execute(ownerId: string, id: string): Promise<void> {
    if (!(await this.tags.deleteOfOwner(ownerId, id))) throw new NotFoundError('Tag');
  }
}
