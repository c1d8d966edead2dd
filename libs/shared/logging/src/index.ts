export * from './lib/log-destination';
