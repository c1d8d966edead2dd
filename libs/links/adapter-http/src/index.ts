export * from './lib/security-headers';
export * from './lib/short-url.pages';
export * from './lib/client-address';
export * from './lib/short-url.handler';
export * from './lib/short-url.counters';
