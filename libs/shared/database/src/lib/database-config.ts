/**
 * Where the data lives: a PostgreSQL server reached through `pg`, or PostgreSQL embedded in the
 * process (PGlite, Postgres compiled to WebAssembly) persisting under a directory, or in memory
 * when the directory is null.
 */
export type DatabaseConfig = { kind: 'postgres'; url: string; poolSize: number } | { kind: 'pglite'; dataDir: string | null };

export function describeDatabase(config: DatabaseConfig): string {
  if (config.kind === 'pglite') return `embedded PGlite (${config.dataDir ?? 'in memory'})`;
  const url = new URL(config.url);
  return `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
