import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Omittable } from '../../envelope/validation.pipe';
import type { Principal } from '@lnk/identity/domain';
import { CurrentPrincipal } from '../../auth/access.decorators';
import { ANALYTICS } from '../../composition/contexts.module';
import type { Analytics } from '../../composition/contexts.composition';
import { ok } from '../../envelope/envelope';

/** A calendar date; an ISO date-time is told the expected format (it used to read "longer than 10 characters"). */
const AS_DATE = { message: '$property must be a date as YYYY-MM-DD' };

export class StatsQueryDto {
  // Both dates are required (the range is at most 366 days, inclusive); the document says so from these rules.
  @JSONSchema({ description: 'First day, as YYYY-MM-DD (UTC).', example: '2026-01-01' })
  @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/, AS_DATE) startDate!: string;
  @JSONSchema({ description: 'Last day, included, as YYYY-MM-DD (UTC); at most 366 days after startDate.', example: '2026-01-31' })
  @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/, AS_DATE) endDate!: string;
  @JSONSchema({ description: 'Only rows whose link name, domain or UTM source, medium or campaign contains this text.' })
  @Omittable() @IsString() @MaxLength(200) q?: string;
}

/** Click statistics (spec 4.8): daily records of the caller's links, `meta.total` only. */
@Controller('user/stats')
export class StatsController {
  constructor(@Inject(ANALYTICS) private readonly analytics: Analytics) {}

  @ApiOperation({ summary: 'Click statistics', description: 'Daily rows (visits, password passes and failures, by UTM source, medium and campaign) of your links between startDate and endDate, both required and included.' })
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
