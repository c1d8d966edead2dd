export * from './lib/ids';
export * from './lib/clock';
export * from './lib/errors';
export * from './lib/paging';
export * from './lib/control-characters';
export * from './lib/unit-of-work';
export * from './lib/quota';
export * from './lib/client-address';
