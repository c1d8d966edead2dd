import { Page, PageRequest } from '@lnk/shared/kernel';
import { Link } from '../model/link.entity';
import { LinkListFilter } from '../use-cases/link.types';

/** A page of the owner's links and the names of the custom domains they use (for their short URLs). */
export interface LinkListAnswer {
  page: Page<Link>;
  domainNames: Map<string, string>;
}

/** What a list of an owner's links asks for. */
export interface LinkListQuery {
  /** A search, trimmed; undefined: none. */
  q: string | undefined;
  page: PageRequest;
  filter: LinkListFilter;
}

/**
 * Lists of an owner's links (GET /user/link, the CLI, the MCP tool). An adapter may keep answers: one is
 * shared by every request it answers (callers present it and never change it), and every committed change
 * of the owner's links must evict it (see LinkListChanges).
 */
export abstract class LinkLists {
  abstract listOf(ownerId: string, query: LinkListQuery): Promise<LinkListAnswer>;
}
