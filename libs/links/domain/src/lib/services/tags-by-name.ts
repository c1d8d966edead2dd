import { Clock, IdGenerator, QuotaExceededError, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { checkTagName, Tag } from '../model/tag.entity';
import { TagRepository } from '../ports/tag.repository';

/** Tags named by their names (bulk tagging, import): found case-insensitively, the missing ones made under the tag quota. */
export interface NamedTags {
  /** By lower-cased name. */
  tags: Map<string, Tag>;
  /** The names (lower-cased) that could not be made: the tag quota is used up. */
  refused: Set<string>;
}

export const tagKey = (name: string) => name.trim().toLowerCase();

export class TagsByName {
  constructor(
    private readonly tags: TagRepository,
    private readonly quota: QuotaPolicy,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The owner's tags of these names (each already checked with checkTagName); `create`: the missing ones are made, in the order given. */
  async resolve(ownerId: string, names: string[], create: boolean): Promise<NamedTags> {
    const wanted = new Map<string, string>();
    for (const name of names) if (!wanted.has(tagKey(name))) wanted.set(tagKey(name), checkTagName(name));
    const tags = new Map((await this.tags.findByNamesOfOwner(ownerId, [...wanted.values()])).map((t) => [tagKey(t.name), t]));
    const refused = new Set<string>();
    const missing = [...wanted].filter(([key]) => !tags.has(key));
    if (!create || !missing.length) return { tags, refused };
    const limit = await this.quota.limitFor(ownerId, 'tags');
    for (const [key, name] of missing) {
      const now = this.clock.now();
      const tag = new Tag({ id: this.ids.next(), ownerId, name, isFavorite: false, createdAt: now, updatedAt: now });
      try {
        await this.tags.insertWithinQuota(tag, limit);
        tags.set(key, tag);
      } catch (error) {
        if (error instanceof QuotaExceededError) refused.add(key);
        else if (error instanceof ValidationError) {
          // Made meanwhile by another request: that one is the tag.
          const [made] = await this.tags.findByNamesOfOwner(ownerId, [name]);
          if (!made) throw error;
          tags.set(key, made);
        } else throw error;
      }
    }
    return { tags, refused };
  }
}
