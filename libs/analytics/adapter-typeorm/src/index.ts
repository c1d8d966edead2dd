export * from './lib/typeorm-stats.repository';
export * from './lib/typeorm-stats-insight.repository';
