export * from './lib/typeorm-billing.repositories';
export * from './lib/sandbox-payment.gateway';
