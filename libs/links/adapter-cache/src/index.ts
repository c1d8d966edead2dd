export * from './lib/cached-redirect-lookup';
