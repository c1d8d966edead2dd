export * from './lib/redis-bus';
export * from './lib/channels';
