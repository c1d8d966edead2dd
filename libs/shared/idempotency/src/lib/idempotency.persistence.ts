import type { PersistenceModule } from '@lnk/shared/database';
import { IdempotencyKeys1764610000000 } from './idempotency-keys.migration';

/** The API platform's own table: each account's Idempotency-Keys. */
export const idempotencyPersistence: PersistenceModule = { migrations: [IdempotencyKeys1764610000000] };
