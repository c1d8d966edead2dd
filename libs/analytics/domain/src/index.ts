export * from './lib/model/click';
export * from './lib/model/click-dimension';
export * from './lib/ports/click-dimensions.port';
export * from './lib/ports/stats.repository';
export * from './lib/ports/click-metrics.port';
export * from './lib/ports/link-click-totals.port';
export * from './lib/services/click-buffer';
export * from './lib/use-cases/query-stats.use-case';
