import { Controller, Param, Query } from '@nestjs/common';
import { BreakdownStatsUseCase, TimeSeriesStatsUseCase, TopLinksStatsUseCase } from '@lnk/analytics/domain';
import { DomainError } from '@lnk/shared/kernel';
import { type Caller, CurrentPrincipal, list, ok, Route } from '@lnk/shared/http';
import { StatsIntervalSchema, StatsTopLinkSchema, StatsValueSchema, COUNT_META } from './stats-insights.schemas';
import { StatsTimeSeriesQueryDto, StatsTopQueryDto } from './stats-insights.request.dto';
import {
  DIMENSION_NAMES,
  DIMENSION_PATHS,
  dimensionOfPath,
  presentStatsInterval,
  presentStatsTopLink,
  presentStatsValue,
} from './stats-insights.presenter';

/** A linkId or tagId that is not the caller's is NOT_FOUND (routes without a path parameter document it here). */
const NOT_FOUND = { 404: 'json' } as const;

const FILTERS =
  'Same period rules as GET /user/stats (startDate and endDate required, at most ' +
  '366 days); linkId, domainId and tagId narrow it to your links.';

/** Click statistics by dimension, over time, and by link (issue 17): read from the daily rollups. */
@Controller('user/stats')
export class StatsInsightsController {
  constructor(
    private readonly timeSeriesStats: TimeSeriesStatsUseCase,
    private readonly topLinksStats: TopLinksStatsUseCase,
    private readonly breakdownStats: BreakdownStatsUseCase,
  ) {}

  @Route('GET', 'timeseries', {
    operationId: 'getStatsTimeSeries',
    scope: 'stats:read',
    answers: list(StatsIntervalSchema),
    meta: COUNT_META,
    errors: NOT_FOUND,
    summary: 'Visits over time',
    description: `Visits per day, week (from Monday) or month (interval), every interval of the period present, oldest first. ${FILTERS}`,
  })
  async timeSeries(@CurrentPrincipal() caller: Caller, @Query() query: StatsTimeSeriesQueryDto) {
    const data = (await this.timeSeriesStats.execute(caller.userId, query)).map(presentStatsInterval);
    return ok(data, 'Request successful', { total: data.length });
  }

  @Route('GET', 'links', {
    operationId: 'getTopLinks',
    scope: 'stats:read',
    answers: list(StatsTopLinkSchema),
    meta: COUNT_META,
    errors: NOT_FOUND,
    summary: 'Top links',
    description: `Your links with the most visits in the period, most first (limit, 10 by default). ${FILTERS}`,
  })
  async topLinks(@CurrentPrincipal() caller: Caller, @Query() query: StatsTopQueryDto) {
    const data = (await this.topLinksStats.execute(caller.userId, query)).map(presentStatsTopLink);
    return ok(data, 'Request successful', { total: data.length });
  }

  @Route('GET', ':dimension', {
    operationId: 'getStatsByDimension',
    scope: 'stats:read',
    answers: list(StatsValueSchema),
    meta: COUNT_META,
    params: {
      dimension: {
        type: 'string',
        enum: [...DIMENSION_NAMES],
        example: 'countries',
        description:
          'referrers, countries, devices, browsers, os or triggers; the singular (referrer, country, ' +
          '...) names the same dimension. Another name: 404 NOT_FOUND listing these.',
      },
    },
    summary: 'Visits by dimension',
    description:
      'Visits by one dimension, most first (limit, 10 by default): dimension is referrers, countries, devices, ' +
      `browsers, os or triggers (link or qr). Counted from the day dimensions were introduced. ${FILTERS}`,
  })
  async breakdown(@CurrentPrincipal() caller: Caller, @Param('dimension') dimension: string, @Query() query: StatsTopQueryDto) {
    const of = dimensionOfPath(dimension);
    // The name is not echoed: the answer lists what the path takes.
    const names = Object.values(DIMENSION_PATHS);
    if (!of)
      throw new DomainError('NOT_FOUND', `No such statistics dimension: use one of ${names.join(', ')} (or the singular)`, {
        dimensions: names,
      });
    const data = (await this.breakdownStats.execute(caller.userId, of, query)).map(presentStatsValue);
    return ok(data, 'Request successful', { total: data.length });
  }
}
