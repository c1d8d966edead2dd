export * from './lib/domains.fakes';
export * from './lib/domains.contract';
