export * from './lib/test-database';
export * from './lib/fixed-clock';
export * from './lib/fake-stripe-api';
export * from './lib/fakes/links.fakes';
export * from './lib/contracts/links.contract';
export * from './lib/fakes/domains.fakes';
export * from './lib/contracts/domains.contract';
