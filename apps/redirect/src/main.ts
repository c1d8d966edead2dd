import { createLogger } from './logger';
import { configOrExit } from '@lnk/shared/config';
import { loadRedirectConfig } from './config';
import { startRedirectApp } from './redirect-app';

/**
 * The redirect server on its own: `node dist/apps/redirect/src/main.js` with DATABASE_URL (the API's
 * PostgreSQL), and REDIS_URL for the API's cache invalidations. Run as many copies as needed behind a load
 * balancer; the API (with SERVE_SHORT_URLS=false) serves everything else.
 */
async function main(): Promise<void> {
  const config = configOrExit(() => loadRedirectConfig(process.env));
  const logger = createLogger(config);
  let app;
  try {
    app = await startRedirectApp(config, logger);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    process.stderr.write(
      code === 'EADDRINUSE'
        ? `Port ${config.port} on ${config.host} is already in use: start with PORT set to a free port.\n`
        : `the redirect server cannot start: ${(error as Error).message}\n`,
    );
    process.exit(1);
  }
  logger.info(
    { port: app.port, host: config.host, redis: Boolean(config.redisUrl) },
    `redirect server listening on http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${app.port}`,
  );
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'stopping: finishing requests in flight and writing buffered clicks');
      void app.close().then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: Error) => {
          logger.error({ err: error.message }, 'stopped with an error');
          process.exit(1);
        },
      );
    });
  }
}

void main();
