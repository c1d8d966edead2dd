export * from './lib/links-crypto';
