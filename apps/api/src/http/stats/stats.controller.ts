import { Controller, Inject, Query } from '@nestjs/common';
import type { Principal } from '@lnk/identity/domain';
import { CurrentPrincipal } from '../../auth/access.decorators';
import { list } from '../../openapi/schema';
import { StatsRecordSchema, TOTAL_META } from './stats.schemas';
import { ANALYTICS } from '../../composition/contexts.module';
import type { Analytics } from '../../composition/contexts.composition';
import { ok } from '../../envelope/envelope';
import { StatsQueryDto } from './stats.request.dto';
import { presentStatsRecord } from './stats.presenter';
import { Route } from '../route.decorator';

/** Click statistics (spec 4.8): daily records of the caller's links, `meta.total` only. */
@Controller('user/stats')
export class StatsController {
  constructor(@Inject(ANALYTICS) private readonly analytics: Analytics) {}

  @Route('GET', '', { scope: 'stats:read', answers: list(StatsRecordSchema), meta: TOTAL_META, summary: 'Click statistics', description: 'Daily rows (visits, password passes and failures, by UTM source, medium and campaign) of your links between startDate and endDate, both required and included.' })
  async stats(@CurrentPrincipal() principal: Principal, @Query() query: StatsQueryDto) {
    const records = await this.analytics.queryStats.execute(principal.userId, query);
    const data = records.map(presentStatsRecord);
    return ok(data, 'Request successful', { total: data.length });
  }
}
