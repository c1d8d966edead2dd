export * from './lib/service-metrics';
