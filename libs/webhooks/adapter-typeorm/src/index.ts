export * from './lib/webhooks.persistence';
export * from './lib/typeorm-webhook.repository';
export * from './lib/typeorm-webhook.outbox';
