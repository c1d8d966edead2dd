import { mkdtempSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { DEFAULT_PLANS } from '@lnk/billing/domain';
import { AppModule } from '../../src/app.module';
import { AppConfig, loadConfig } from '@lnk/composition';
import { configureHttpServer, createHttpAdapter } from '../../src/http-server';
import { createLogger } from '@lnk/shared/logging';
import { buildOpenApiDocument } from '../../src/openapi/openapi';
import { ResponseContract } from './contract';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as it is, with the given content type. */
  raw?: { body: string | Buffer; contentType?: string };
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: NestFastifyApplication;
  baseUrl: string;
  config: AppConfig;
  dataSource: DataSource;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResult<T>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Extra controllers, for tests of cross-cutting behaviour (errors, validation) on routes of their own. */
  controllers?: Type[];
  database?: TestDatabase;
  /** Put before every path `request` sends (e.g. '/v1', to run a suite through the versioned prefix). */
  pathPrefix?: string;
  /** Check every answer against the OpenAPI document (default true). */
  checkContract?: boolean;
}

/** Files the app keeps beside its database (the secret key) go to a temporary folder in tests. */
function dataDirFor(database: TestDatabase): string {
  return database.config.kind === 'pglite' && database.config.dataDir ? database.config.dataDir : mkdtempSync(join(tmpdir(), 'lnk-app-'));
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Every test request comes from one address: tests of other things must not trip the limits (rate-limit tests set their own). */
const GENEROUS_RATE_LIMITS = { RATE_LIMIT_API: '1000000/60', RATE_LIMIT_PUBLIC: '1000000/60', RATE_LIMIT_QR: '1000000/60' };

/** A port free on loopback now, so the app's public address is known before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The real AppModule on a fresh database, served over real HTTP on a loopback port. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const port = await freePort();
  const env = {
    LOG_LEVEL: 'silent',
    BCRYPT_COST: '4',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    SHORT_BASE_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDirFor(database),
    ...GENEROUS_RATE_LIMITS,
    ...options.env,
  };
  const config: AppConfig = { ...loadConfig(env), database: database.config };
  const logger = createLogger(config);
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config, logger)],
    controllers: options.controllers ?? [],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(config, logger), {
    logger: false,
    rawBody: true,
    return503OnClosing: true,
  });
  await configureHttpServer(app);
  await app.listen(port, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${port}`;
  const contract = (options.checkContract ?? !options.controllers) === false ? null : new ResponseContract(buildOpenApiDocument(app));

  const request = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<HttpResult<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | Buffer | undefined;
    if (opts.raw) {
      body = opts.raw.body;
      if (opts.raw.contentType) headers['content-type'] = opts.raw.contentType;
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
    const response = await fetch(baseUrl + (options.pathPrefix ?? '') + path, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    const parsed = parseBody(text);
    const broken = contract?.check(method, path, response.status, response.headers.get('content-type'), parsed) ?? [];
    if (broken.length) throw new Error(`The answer breaks the OpenAPI document:\n  ${broken.join('\n  ')}\nbody: ${text.slice(0, 500)}`);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };

  return {
    app,
    baseUrl,
    config,
    dataSource: app.get(DataSource),
    request,
    close: async () => {
      await app.close();
      if (!options.database) await database.drop();
    },
  };
}

/**
 * The beforeAll/afterAll of a describe that shares one app: starts it with `options`, hands it to
 * `ready` (which keeps it, and may make accounts in it), closes it after the describe.
 */
export function useTestApp(ready: (t: TestApp) => unknown, options: TestAppOptions = {}): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(options);
    await ready(app);
  });
  afterAll(() => app?.close());
}

/** PLANS for a test: the built-in catalogue with the free plan's limits changed. */
export function freePlanLimits(limits: { maxDomains?: number; maxLinks?: number; maxTags?: number }): string {
  return JSON.stringify(DEFAULT_PLANS.map((plan) => (plan.price === 0 ? { ...plan, ...limits } : plan)));
}
