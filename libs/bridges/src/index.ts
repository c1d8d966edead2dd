export * from './lib/context-bridges';
export * from './lib/account-bridges';
export * from './lib/webhook-bridges';
