import { ConfigurableModuleBuilder, Module, Provider } from '@nestjs/common';
import {
  BreakdownStatsUseCase,
  QueryStatsUseCase,
  StatsFilters,
  StatsInsightRepository,
  StatsLinks,
  StatsRepository,
  TimeSeriesStatsUseCase,
  TopLinksStatsUseCase,
} from '@lnk/analytics/domain';
import { providerOf } from '@lnk/shared/http';
import { ANALYTICS_PORTS, AnalyticsPorts } from './analytics.ports';
import { StatsController } from './stats.controller';
import { StatsInsightsController } from './stats-insights.controller';
import { StatsMcpTools } from './stats.mcp-tools';

export interface AnalyticsModuleOptions {
  ports: AnalyticsPorts;
}

/**
 * `AnalyticsModule.forRootAsync({ inject, useFactory })`: the app gives the ports it bound (Nest's
 * ConfigurableModuleBuilder makes the methods and the options' provider).
 */
const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: OPTIONS } = new ConfigurableModuleBuilder<AnalyticsModuleOptions>()
  .setClassMethodName('forRoot')
  .build();

/** Each port under its abstract class, as the app bound it. */
const PORTS: Provider[] = Object.entries(ANALYTICS_PORTS).map(([name, port]) => ({
  provide: port,
  inject: [OPTIONS],
  useFactory: ({ ports }: AnalyticsModuleOptions) => ports[name as keyof AnalyticsPorts],
}));

/** Each use case, built from the ports it needs (injected by their classes), once for the app. */
const USE_CASES: Provider[] = [
  providerOf(QueryStatsUseCase, [StatsRepository]),
  // One resolution of a filter's linkId and tagId for every insight.
  providerOf(StatsFilters, [StatsLinks]),
  providerOf(BreakdownStatsUseCase, [StatsFilters, StatsInsightRepository]),
  providerOf(TimeSeriesStatsUseCase, [StatsFilters, StatsInsightRepository]),
  providerOf(TopLinksStatsUseCase, [StatsFilters, StatsInsightRepository]),
];

/** The analytics context's controllers (the app's route walk and scope table read them before any app starts). */
export const ANALYTICS_CONTROLLERS = [StatsController, StatsInsightsController];

/**
 * The analytics context's HTTP face: the statistics' controllers and their use cases, built from the
 * ports the app binds. Counting clicks is not here: the app composes the click buffer for the short
 * URLs, writes it on its schedule and at shutdown.
 */
@Module({
  controllers: ANALYTICS_CONTROLLERS,
  // StatsMcpTools: its tool for agents (the app's MCP endpoint finds it by its @McpTool method).
  providers: [...PORTS, ...USE_CASES, StatsMcpTools],
})
export class AnalyticsModule extends ConfigurableModuleClass {}
