export * from './lib/context-bridges';
export * from './lib/account-bridges';
