export * from './lib/typeorm-stats.repository';
