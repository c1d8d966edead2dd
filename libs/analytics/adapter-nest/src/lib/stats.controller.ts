import { Controller, Query } from '@nestjs/common';
import { QueryStatsUseCase } from '@lnk/analytics/domain';
import { type Caller, CurrentPrincipal, list, okPage, okStream, Route, streamedList } from '@lnk/shared/http';
import { StatsRecordSchema, STATS_META } from './stats.schemas';
import { StatsQueryDto } from './stats.request.dto';
import { presentStatsBatches, presentStatsRecord } from './stats.presenter';

/**
 * Click statistics (spec 4.8): daily records of the caller's links. Without start and limit, all of the
 * range, streamed as they are read (`meta.total` only); with either, one page (`meta` of spec 2.2).
 */
@Controller('user/stats')
export class StatsController {
  constructor(private readonly queryStats: QueryStatsUseCase) {}

  @Route('GET', '', {
    operationId: 'getStats',
    scope: 'stats:read',
    answers: list(StatsRecordSchema),
    meta: STATS_META,
    summary: 'Click statistics',
    description:
      'Daily rows (visits, password passes and failures, by UTM source, medium and campaign) of your links between startDate and endDate, both required and included, ordered by date, link name, UTM source, medium and campaign, then id. Without start and limit, every row of the range; with either, one page of at most limit rows (default 10) after start.',
  })
  async stats(@CurrentPrincipal() caller: Caller, @Query() query: StatsQueryDto) {
    const answer = await this.queryStats.execute(caller.userId, query);
    if ('page' in answer) return okPage({ ...answer.page, items: answer.page.items.map(presentStatsRecord) });
    return streamedList(okStream(presentStatsBatches(answer.all)));
  }
}
