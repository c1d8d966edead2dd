import { Controller, Query } from '@nestjs/common';
import { QueryStatsUseCase } from '@lnk/analytics/domain';
import { type Caller, CurrentPrincipal, Cursors, list, okPage, okStream, Route, streamedList } from '@lnk/shared/http';
import { StatsRecordSchema, STATS_META } from './stats.schemas';
import { StatsQueryDto } from './stats.request.dto';
import { presentStatsBatches, presentStatsRecord } from './stats.presenter';

/**
 * Click statistics (spec 4.8): daily records of the caller's links. Without start and limit, all of the
 * range, streamed as they are read (`meta.total` only); with either, one page (`meta` of spec 2.2).
 */
@Controller('user/stats')
export class StatsController {
  constructor(
    private readonly queryStats: QueryStatsUseCase,
    private readonly cursors: Cursors,
  ) {}

  @Route('GET', '', {
    operationId: 'getStats',
    scope: 'stats:read',
    answers: list(StatsRecordSchema),
    meta: STATS_META,
    summary: 'Click statistics',
    description:
      'Daily rows (visits, password passes and failures, by UTM source, medium and campaign) of your links between ' +
      'startDate and endDate, both required and included, ordered by date, link name, UTM source, medium and campaign, ' +
      'then id. Without start and limit, every row of the range; with either, one page of at most limit rows (default ' +
      '10) after start; with cursor (meta.nextCursor of a page), the page after that one.',
  })
  async stats(@CurrentPrincipal() caller: Caller, @Query() query: StatsQueryDto) {
    // A cursor's scope: the range and the search (the order is fixed).
    const scope = {
      list: 'stats',
      owner: caller.userId,
      query: { startDate: query.startDate, endDate: query.endDate, q: query.q?.trim() || undefined },
    };
    const page = query.cursor === undefined ? undefined : this.cursors.request(query, scope);
    const answer = await this.queryStats.execute(caller.userId, { ...query, page });
    if ('page' in answer)
      return okPage({
        ...answer.page,
        items: answer.page.items.map(presentStatsRecord),
        nextCursor: this.cursors.next(answer.page, scope),
      });
    return streamedList(okStream(presentStatsBatches(answer.all)));
  }
}
