export * from './lib/cached-redirect-lookup';
export * from './lib/cached-link-lists';
