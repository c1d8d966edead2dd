export * from './lib/model/click';
export * from './lib/ports/stats.ports';
export * from './lib/use-cases/click-buffer';
export * from './lib/use-cases/query-stats.use-case';
