import { Controller, Get, Inject, Query } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { Omittable } from '../../envelope/validation.pipe';
import type { Principal } from '@lnk/identity/domain';
import { CurrentPrincipal } from '../../auth/access.decorators';
import { ANALYTICS } from '../../composition/contexts.module';
import type { Analytics } from '../../composition/contexts.composition';
import { ok } from '../../envelope/envelope';

export class StatsQueryDto {
  @Omittable() @IsString() @MaxLength(10) startDate?: string;
  @Omittable() @IsString() @MaxLength(10) endDate?: string;
  @Omittable() @IsString() @MaxLength(200) q?: string;
}

/** Click statistics (spec 4.8): daily records of the caller's links, `meta.total` only. */
@Controller('user/stats')
export class StatsController {
  constructor(@Inject(ANALYTICS) private readonly analytics: Analytics) {}

  @Get()
  async stats(@CurrentPrincipal() principal: Principal, @Query() query: StatsQueryDto) {
    const records = await this.analytics.queryStats.execute(principal.userId, query);
    const data = records.map((r) => ({
      id: r.id,
      date: `${r.date}T00:00:00.000Z`,
      userId: r.ownerId,
      linkId: r.linkId,
      linkName: r.linkName,
      domainId: r.domainId,
      domainName: r.domainName,
      utmSource: r.utmSource,
      utmMedium: r.utmMedium,
      utmCampaign: r.utmCampaign,
      visits: r.visits,
      passwordPassed: r.passwordPassed,
      passwordFailed: r.passwordFailed,
    }));
    return ok(data, 'Request successful', { total: data.length });
  }
}
