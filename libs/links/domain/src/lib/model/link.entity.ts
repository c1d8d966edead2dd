import { EntityOf } from '@lnk/shared/kernel';
import { LinkOptions, NO_LINK_OPTIONS } from './link-options';

export interface LinkProps {
  id: string;
  ownerId: string;
  /** A verified custom domain of the owner, or null for the service's default short domain. */
  domainId: string | null;
  slug: string;
  url: string;
  title: string;
  description: string;
  /** Enabled: a disabled link answers 404. */
  status: boolean;
  passwordHash: string | null;
  tagIds: string[];
  clicks: number;
  createdAt: Date;
  updatedAt: Date;
  /** Marked by its owner (the dashboard's star); left out when made: false. */
  isFavorite?: boolean;
  /** Redirect type, expiry, visit limit, UTM values, targets (issue 18); absent: none, a link as the spec has it. */
  options?: LinkOptions;
}

export class Link extends EntityOf<LinkProps>()(
  'id',
  'ownerId',
  'domainId',
  'slug',
  'url',
  'title',
  'description',
  'status',
  'passwordHash',
  'clicks',
  'createdAt',
  'updatedAt',
) {
  constructor(props: LinkProps) {
    super({ ...props, isFavorite: props.isFavorite ?? false });
  }

  get hasPassword(): boolean {
    return this.props.passwordHash !== null;
  }
  get isFavorite(): boolean {
    return this.props.isFavorite === true;
  }
  get tagIds(): string[] {
    return [...this.props.tagIds];
  }
  get options(): LinkOptions {
    return this.props.options ?? NO_LINK_OPTIONS;
  }
  /** Whether any option (issue 18) is set: a plain link's options are all defaults. */
  get hasOptions(): boolean {
    return this.props.options !== undefined && this.props.options !== NO_LINK_OPTIONS;
  }

  change(
    changes: Partial<
      Pick<
        LinkProps,
        'domainId' | 'slug' | 'url' | 'title' | 'description' | 'status' | 'passwordHash' | 'tagIds' | 'options' | 'isFavorite'
      >
    >,
    now: Date,
  ): void {
    this.props = { ...this.props, ...changes, updatedAt: now };
  }

  toProps(): LinkProps {
    return { ...this.props, tagIds: [...this.props.tagIds] };
  }
}
