export * from './lib/log-destination';
export * from './lib/logger';
