// The embedded PostgreSQL (PGlite): TypeORM's driver on it with the one session lent to one connection at a
// time, the lock on DATA_DIR and the socket the holder serves it on (docs/adr/2026-11-27-pglite-socket-server.md).
export * from './lib/pglite-driver';
export * from './lib/embedded-database';
export * from './lib/private-data-dir';
