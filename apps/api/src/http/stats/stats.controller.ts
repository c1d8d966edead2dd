import { Controller, Inject, Query } from '@nestjs/common';
import type { Principal } from '@lnk/identity/domain';
import { CurrentPrincipal, list, okPage, okStream, Route, streamedList } from '@lnk/shared/http';
import { StatsRecordSchema, STATS_META } from './stats.schemas';
import { ANALYTICS } from '../../composition/contexts.module';
import type { Analytics } from '../../composition/contexts.composition';
import { StatsQueryDto } from './stats.request.dto';
import { presentStatsBatches, presentStatsRecord } from './stats.presenter';

/**
 * Click statistics (spec 4.8): daily records of the caller's links. Without start and limit, all of the
 * range, streamed as they are read (`meta.total` only); with either, one page (`meta` of spec 2.2).
 */
@Controller('user/stats')
export class StatsController {
  constructor(@Inject(ANALYTICS) private readonly analytics: Analytics) {}

  @Route('GET', '', {
    operationId: 'getStats',
    scope: 'stats:read',
    answers: list(StatsRecordSchema),
    meta: STATS_META,
    summary: 'Click statistics',
    description:
      'Daily rows (visits, password passes and failures, by UTM source, medium and campaign) of your links between startDate and endDate, both required and included, ordered by date, link name, UTM source, medium and campaign, then id. Without start and limit, every row of the range; with either, one page of at most limit rows (default 10) after start.',
  })
  async stats(@CurrentPrincipal() principal: Principal, @Query() query: StatsQueryDto) {
    const answer = await this.analytics.queryStats.execute(principal.userId, query);
    if ('page' in answer) return okPage({ ...answer.page, items: answer.page.items.map(presentStatsRecord) });
    return streamedList(okStream(presentStatsBatches(answer.all)));
  }
}
