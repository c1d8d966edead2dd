import { Injectable, Logger, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { IdempotencyKeys } from '@lnk/shared/idempotency';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** How often an instance deletes expired keys, and at most how many at a time: a bounded statement, whatever piled up. */
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 1000;

/**
 * Deletes keys past their lifetime, a batch a minute on every instance (a second instance's batch finds
 * fewer rows, never the wrong ones). Correctness does not wait for it: an expired key is taken over by
 * the next request with it.
 */
@Injectable()
export class IdempotencyKeySweeper implements OnModuleInit, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly keys: IdempotencyKeys) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<number> {
    return this.keys.sweep(SWEEP_BATCH).catch((error: unknown) => {
      this.logger.warn(`expired idempotency keys not swept: ${(error as Error).message}`);
      return 0;
    });
  }
}

/** Idempotency-Key on the routes that declare it (@Route's idempotent): its keys, their sweep, the interceptor. */
@Module({
  providers: [
    { provide: IdempotencyKeys, inject: [DataSource], useFactory: (dataSource: DataSource) => new IdempotencyKeys(dataSource) },
    IdempotencyKeySweeper,
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
})
export class IdempotencyModule {}
