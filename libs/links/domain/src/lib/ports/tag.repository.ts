import { Page, PageRequest } from '@lnk/shared/kernel';
import { Tag, TagWithCount } from '../model/tag.entity';

export abstract class TagRepository {
  /**
   * Stores a new tag if the owner holds fewer than `limit` tags, atomically (else QuotaExceededError).
   * A name the owner already uses, in any case, is a ValidationError on `name`.
   */
  abstract insertWithinQuota(tag: Tag, limit: number): Promise<void>;
  /** Newest first, with how many of the owner's links carry each tag; `query` matches the name. */
  abstract listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<TagWithCount>>;
  abstract favoritesOfOwner(ownerId: string): Promise<TagWithCount[]>;
  abstract findOfOwner(ownerId: string, id: string): Promise<TagWithCount | null>;
  /** The tags among `ids` that belong to the owner. */
  abstract findManyOfOwner(ownerId: string, ids: string[]): Promise<Tag[]>;
  /** The owner's tags whose names are among `names`, compared case-insensitively (as names are unique). */
  abstract findByNamesOfOwner(ownerId: string, names: string[]): Promise<Tag[]>;
  /**
   * A name the owner already uses on another tag is a ValidationError on `name`. With `unchangedSince`, the
   * write is made only if the tag's updatedAt is still that (one conditional statement: If-Match). False
   * when nothing was written: the tag is gone, or (with `unchangedSince`) another write came since.
   */
  abstract update(tag: Tag, unchangedSince?: Date): Promise<boolean>;
  /** Deletes the tag and takes it off every link. */
  abstract deleteOfOwner(ownerId: string, id: string): Promise<boolean>;
  abstract countOfOwner(ownerId: string): Promise<number>;
  abstract deleteAllOfOwner(ownerId: string): Promise<void>;
}
