export * from './lib/database-config';
export * from './lib/create-data-source';
export * from './lib/pglite-driver';
export * from './lib/unique-violation';
export * from './lib/database-unavailable';
export * from './lib/unit-of-work';
export * from './lib/sql';
export * from './lib/transaction';
