export * from './lib/links.fakes';
export * from './lib/links.contract';
