import { PageRequest } from '@lnk/shared/kernel';
import { LinkListAnswer, LinkLists } from '../ports/link-lists.port';
import { LinkListFilter } from './link.types';

/**
 * Lists the owner's links, read through `lists`: the composition puts a cache in front (answers by owner
 * and query, evicted when the owner's links change), so an answer may be shared: present it, never change it.
 */
export class ListLinksUseCase {
  constructor(private readonly lists: LinkLists) {}

  execute(ownerId: string, query: string | undefined, page: PageRequest, filter: LinkListFilter = {}): Promise<LinkListAnswer> {
    return this.lists.listOf(ownerId, { q: query?.trim() || undefined, page, filter });
  }
}
