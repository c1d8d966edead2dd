export * from './lib/idempotency-keys';
export { idempotencyPersistence } from './lib/idempotency.persistence';
