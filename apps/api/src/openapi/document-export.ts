import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { DatabaseConfig } from '@lnk/shared/database';
import { AppModule } from '../app.module';
import { AppConfig, loadConfig } from '@lnk/composition';
import { configureHttpServer, createHttpAdapter } from '../http-server';
import { createLogger } from '@lnk/shared/logging';
import { buildOpenApiDocument } from './openapi';

/**
 * The settings the document is made with: the defaults, never this machine's environment, so that every
 * run writes the same document (a PORT or PUBLIC_BASE_URL of the shell must not leak into it). The key is
 * given so that nothing is written to DATA_DIR; it seals nothing, as no request is served.
 */
const DOCUMENT_ENV = { LOG_LEVEL: 'silent', SECRET_KEY: '0'.repeat(64), WEBHOOKS_WORKER: 'false' };

/**
 * The OpenAPI document `GET /openapi.json` serves, taken from the real AppModule built in-process
 * (configured as the server configures it, never listening). The app needs a database to start: an
 * in-memory embedded one by default, or the one given.
 */
export async function buildApiDocument(database: DatabaseConfig = { kind: 'pglite', dataDir: null }): Promise<OpenAPIObject> {
  const config: AppConfig = { ...loadConfig(DOCUMENT_ENV), database };
  const logger = createLogger(config);
  const options = { logger: false as const, abortOnError: false };
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger),
    createHttpAdapter(config, logger),
    options,
  );
  try {
    await configureHttpServer(app);
    await app.init();
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/** Every object's keys in order, recursively: the file does not change when routes or fields are declared in another order. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}

/** The document as a file (libs/sdk/openapi.json, which the SDK is generated from): sorted keys, two-space indent, a final newline. */
export function documentText(document: OpenAPIObject): string {
  return `${JSON.stringify(sorted(document), null, 2)}\n`;
}
