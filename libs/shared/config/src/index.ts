export * from './lib/variables';
export * from './lib/parsers';
