import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { SCOPES } from '@lnk/identity/domain';
import { AppModule } from '../../../apps/api/src/app.module';
import { loadConfig } from '../../../apps/api/src/config/app-config';
import { configureHttpServer, createHttpAdapter } from '../../../apps/api/src/http-server';
import { createLogger } from '../../../apps/api/src/logging/logger';
import { CONTEXTS } from '../../../apps/api/src/composition/contexts.module';
import type { Contexts } from '../../../apps/api/src/composition/contexts.composition';

/** A throw-away PostgreSQL database for one benchmark run (BENCH_DATABASE_URL's server, else the local one). */
export async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `lnk_bench_${Date.now().toString(36)}`;
  const run = async (sql: string) => {
    const client = new Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

export interface BenchApp {
  baseUrl: string;
  dataSource: DataSource;
  token: string;
  userId: string;
  close(): Promise<void>;
}

/** The real app on the given database, listening on loopback, with one account and a PAT holding every scope. */
export async function startBenchApp(databaseUrl: string, env: Record<string, string> = {}): Promise<BenchApp> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', BCRYPT_COST: '4', DATA_DIR: '/tmp/lnk-bench', ...env });
  const logger = createLogger(config.logLevel, 2);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, logger), createHttpAdapter(config, logger), { logger: false });
  await configureHttpServer(app);
  await app.listen(0, '127.0.0.1');
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
  const { identity } = app.get<Contexts>(CONTEXTS);
  const user = await identity.registerUser.execute({ email: `bench-${Date.now()}@example.com`, password: 'bench password' });
  const { value } = await identity.createPat.execute({ userId: user.id, scopes: [...SCOPES], via: 'oauth', tokenId: 'bench', clientId: null }, { name: 'bench', scopes: [...SCOPES] });
  return { baseUrl, dataSource: app.get(DataSource), token: value, userId: user.id, close: () => app.close() };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Times `runs` sequential calls after `warmup` unmeasured ones; milliseconds, sorted. */
export async function timeCalls(call: () => Promise<unknown>, runs: number, warmup = 5): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b);
}
