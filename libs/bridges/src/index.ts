export * from './lib/context-bridges';
