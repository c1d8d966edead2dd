export * from './lib/redis-login.throttle';
