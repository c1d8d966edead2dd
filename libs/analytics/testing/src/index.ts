export * from './lib/analytics.fakes';
