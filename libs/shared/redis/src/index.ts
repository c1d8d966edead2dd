export * from './lib/redis-bus';
