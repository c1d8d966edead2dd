import { Injectable } from '@nestjs/common';
import { TimeSeriesStatsUseCase } from '@lnk/analytics/domain';
import { McpTool, type McpToolCall, ok } from '@lnk/shared/http';
import { StatsTimeSeriesQueryDto } from './stats-insights.request.dto';
import { presentStatsInterval } from './stats-insights.presenter';

/** The analytics context's MCP tool (docs/mcp.md): the work of GET /user/stats/timeseries, its scope, DTO and use case. */
@Injectable()
export class StatsMcpTools {
  constructor(private readonly timeSeriesStats: TimeSeriesStatsUseCase) {}

  @McpTool({
    name: 'get_link_stats',
    scope: 'stats:read',
    input: StatsTimeSeriesQueryDto,
    readOnly: true,
    description:
      'Visits per day, week or month (interval) between startDate and endDate (YYYY-MM-DD, both included, at most 366 days) (GET ' +
      '/user/stats/timeseries): of one link of yours with linkId, else of all your links (domainId and tagId narrow them).',
  })
  async timeSeries({ caller, input }: McpToolCall<StatsTimeSeriesQueryDto>) {
    const data = (await this.timeSeriesStats.execute(caller.userId, input)).map(presentStatsInterval);
    return ok(data, 'Request successful', { total: data.length });
  }
}
