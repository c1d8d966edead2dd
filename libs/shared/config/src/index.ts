export * from './lib/variables';
export * from './lib/parsers';
export * from './lib/short-url-edge';
export * from './lib/database-bounds';
export * from './lib/log-format';
