export * from './lib/cached-bearer-principals';
export * from './lib/cached-account-reader';
export * from './lib/throttled-pat-uses';
