import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { configOrExit } from '@lnk/shared/config';
import { loadConfig, DeliveryWorkerModule } from '@lnk/composition';
import { createLogger } from '@lnk/shared/logging';
import { PinoNestLogger } from './logging/nest-logger';
import { lowerPriority } from './worker/process-priority';

/**
 * The webhooks' delivery worker alone: `node dist/apps/api/src/worker.js` (`npm run worker`), with the
 * API's settings (DATABASE_URL, SECRET_KEY, REDIS_URL, WEBHOOKS_*). It sends what the API instances and
 * redirect apps enqueue, so they can run with WEBHOOKS_WORKER=false and keep their CPU for requests. It
 * runs whatever WEBHOOKS_WORKER says (that setting is for the API process), at the scheduling priority
 * WEBHOOKS_WORKER_NICE (19 by default): on a machine shared with the redirects it takes the CPU they
 * leave, and a backlog made under load is sent when the load drops (the outbox keeps it meanwhile).
 * SIGTERM/SIGINT: it takes no more work, waits for the sends in flight and records them, and exits 0.
 */
async function main(): Promise<void> {
  const config = configOrExit(() => loadConfig(process.env));
  const logger = createLogger(config);
  let nice: number | null = null;
  if (config.webhooks.workerNice > 0) {
    try {
      nice = lowerPriority(config.webhooks.workerNice).nice;
    } catch (error) {
      logger.warn(
        { err: (error as Error).message },
        'webhook delivery worker: could not lower its scheduling priority; it runs at the one it was started with',
      );
    }
  }
  let app;
  try {
    app = await NestFactory.createApplicationContext(
      DeliveryWorkerModule.forRoot({ ...config, webhooks: { ...config.webhooks, worker: true } }, logger),
      { logger: new PinoNestLogger(logger), abortOnError: false },
    );
  } catch (error) {
    process.stderr.write(`the webhook delivery worker cannot start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  // A clean shutdown exits 0 once the sends in flight are answered and recorded, through process.exit so the log is flushed.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () =>
      logger.info(
        { signal },
        `webhook delivery worker stopping (${signal}): no new deliveries taken, the ones in flight are finished and recorded`,
      ),
    );
  }
  const { batchSize, maxInFlight, pollIntervalMs } = config.webhooks;
  logger.info(
    { nice, batchSize, maxInFlight, pollIntervalMs, redis: Boolean(config.redisUrl) },
    `webhook delivery worker started${nice === null ? '' : ` at nice ${nice}`}`,
  );
}

void main();
