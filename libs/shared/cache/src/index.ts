export * from './lib/bounded-cache';
export * from './lib/lookup-cache';
