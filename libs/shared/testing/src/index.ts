export * from './lib/test-database';
export * from './lib/fixed-clock';
export * from './lib/fake-stripe-api';
