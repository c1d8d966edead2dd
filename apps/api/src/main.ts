import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import {
  claimEmbeddedDatabase,
  DataDirNotPrivateError,
  EmbeddedDatabaseInUseError,
  ensurePrivateDataDir,
  PgliteHost,
} from '@lnk/shared/embedded-database';
import { configOrExit } from '@lnk/shared/config';
import { AppConfig, loadConfig } from '@lnk/composition';
import { configureHttpServer, createHttpAdapter } from './http-server';
import { listenEarly, PortUnavailableError } from './http-listener';
import { createLogger } from '@lnk/shared/logging';
import { PinoNestLogger } from './logging/nest-logger';
import { logShutdownSignals, logStarted } from './logging/lifecycle-log';

/** DATA_DIR, where the embedded database or the key file is kept: made private, or one line and exit 1 when it is not. */
function privateDataDirOrExit(config: AppConfig): void {
  if (config.database.kind !== 'pglite' && config.secretKey) return;
  try {
    ensurePrivateDataDir(config.dataDir);
  } catch (error) {
    process.stderr.write(
      error instanceof DataDirNotPrivateError
        ? `${error.message}\n`
        : `cannot use DATA_DIR ${config.dataDir}: ${(error as Error).message}\n`,
    );
    process.exit(1);
  }
}

async function claimEmbeddedDatabaseOrExit(config: AppConfig): Promise<PgliteHost | null> {
  const database = config.database;
  if (database.kind !== 'pglite' || !database.dataDir) return null;
  try {
    // Listening on every interface, it answers on loopback.
    const host =
      config.host === '0.0.0.0'
        ? '127.0.0.1'
        : config.host === '::'
          ? '[::1]'
          : config.host.includes(':')
            ? `[${config.host}]`
            : config.host;
    return await claimEmbeddedDatabase(database.dataDir, { name: 'the server', url: `http://${host}:${config.port}` });
  } catch (error) {
    process.stderr.write(
      error instanceof EmbeddedDatabaseInUseError
        ? `${error.message}: stop that process first, or give this server another DATA_DIR (or DATABASE_URL for PostgreSQL)\n`
        : `cannot take the embedded database in ${database.dataDir}: ${(error as Error).message}\n`,
    );
    process.exit(1);
  }
}

async function bootstrap(): Promise<void> {
  const config = configOrExit(() => loadConfig(process.env));
  // The port first, before any database work: a busy port is one clear line and exit 1. Held from now on.
  let listener;
  try {
    listener = await listenEarly(config.port, config.host);
  } catch (error) {
    if (!(error instanceof PortUnavailableError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  privateDataDirOrExit(config);
  // The embedded database belongs to one process: a second server is refused before it touches the files.
  const embedded = await claimEmbeddedDatabaseOrExit(config);
  const logger = createLogger(config);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger),
    createHttpAdapter(config, logger, listener.serverFactory),
    {
      logger: new PinoNestLogger(logger),
      // The Stripe webhook's signature covers the exact bytes of the body.
      rawBody: true,
      // From the first moment of a shutdown, new requests get a 503 envelope (http-server.ts turnAwayWhileDraining).
      return503OnClosing: false,
    },
  );
  // A clean shutdown on SIGTERM/SIGINT exits 0, through process.exit so the log is flushed. Registered
  // before configureHttpServer, whose own enableShutdownHooks() then finds every signal taken.
  app.enableShutdownHooks([], { useProcessExit: true });
  // The database module holds it now, and lets it go when the app closes.
  await embedded?.release();
  await configureHttpServer(app);
  await app.listen(config.port, config.host);
  logStarted(logger, config, (listener.server.address() as AddressInfo).port);
  logShutdownSignals(logger);
}

void bootstrap();
