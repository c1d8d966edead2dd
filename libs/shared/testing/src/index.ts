export * from './lib/test-database';
export * from './lib/fixed-clock';
