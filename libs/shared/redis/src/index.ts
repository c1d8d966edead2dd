export * from './lib/redis-bus';
export * from './lib/channels';
export * from './lib/cache-listeners';
export * from './lib/fallback-redis';
