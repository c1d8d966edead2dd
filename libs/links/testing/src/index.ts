export * from './lib/links.fakes';
export * from './lib/links.contract';
export * from './lib/memory-redirect-lookup';
