import { NotFoundError, ValidationError } from '@lnk/shared/kernel';
import { checkStatsPeriod } from '../model/stats-period';
import { StatsFilter } from '../ports/stats-insight.repository';
import { StatsLinks } from '../ports/stats-links.port';

/** What a caller may narrow statistics by, as sent. */
export interface StatsFilterParams {
  startDate?: string;
  endDate?: string;
  linkId?: string;
  domainId?: string;
  tagId?: string;
}

export const DEFAULT_STATS_LIMIT = 10;
export const MAX_STATS_LIMIT = 100;

/** `limit` of a breakdown or top list: 1 to MAX_STATS_LIMIT, DEFAULT_STATS_LIMIT when absent. */
export function checkStatsLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_STATS_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_STATS_LIMIT)
    throw ValidationError.field('limit', `limit must be an integer from 1 to ${MAX_STATS_LIMIT}`);
  return limit;
}

/**
 * The filter of a statistics question: the period as GET /user/stats checks it, and the links it names.
 * A link or tag that is not the caller's is NOT_FOUND, as everywhere; a link and a tag together mean the
 * link if it carries the tag. A domain only narrows (the rows are the caller's anyway).
 */
export class StatsFilters {
  constructor(private readonly links: StatsLinks) {}

  async resolve(ownerId: string, params: StatsFilterParams): Promise<StatsFilter> {
    const { startDate, endDate } = checkStatsPeriod(params);
    let linkIds: string[] | undefined;
    if (params.linkId !== undefined) {
      if (!(await this.links.isOwnersLink(ownerId, params.linkId))) throw new NotFoundError('Link');
      linkIds = [params.linkId];
    }
    if (params.tagId !== undefined) {
      const tagged = await this.links.linksTagged(ownerId, params.tagId);
      if (tagged === null) throw new NotFoundError('Tag');
      linkIds = linkIds ? linkIds.filter((id) => tagged.includes(id)) : tagged;
    }
    return {
      ownerId,
      startDate,
      endDate,
      ...(linkIds ? { linkIds } : {}),
      ...(params.domainId !== undefined ? { domainId: params.domainId } : {}),
    };
  }
}
