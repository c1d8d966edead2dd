import { EntityOf, ValidationError } from '@lnk/shared/kernel';

export interface TagProps {
  id: string;
  ownerId: string;
  name: string;
  isFavorite: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface TagWithCount {
  tag: Tag;
  /** How many of the owner's links carry the tag. */
  linkCount: number;
}

export function checkTagName(value: unknown): string {
  if (typeof value !== 'string' || value.trim().length < 1 || value.trim().length > 64)
    throw ValidationError.field('name', 'name must be 1 to 64 characters');
  return value.trim();
}

export class Tag extends EntityOf<TagProps>()('id', 'ownerId', 'name', 'isFavorite', 'createdAt', 'updatedAt') {
  change(changes: Partial<Pick<TagProps, 'name' | 'isFavorite'>>, now: Date): void {
    this.props = { ...this.props, ...changes, updatedAt: now };
  }

  toProps(): TagProps {
    return { ...this.props };
  }
}
