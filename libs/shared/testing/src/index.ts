export * from './lib/test-database';
export * from './lib/test-data-source';
export * from './lib/test-migration';
export * from './lib/fixed-clock';
export * from './lib/fake-stripe-api';
export * from './lib/fakes/password-hasher.fake';
export * from './lib/fakes/address-key.fake';
export * from './lib/quota-race';
