import type { PersistenceModule } from '@lnk/shared/database';
import { identityPersistence } from '@lnk/identity/adapter-typeorm';
import { linksPersistence } from '@lnk/links/adapter-typeorm';
import { domainsPersistence } from '@lnk/domains/adapter-typeorm';
import { analyticsPersistence } from '@lnk/analytics/adapter-typeorm';
import { billingPersistence } from '@lnk/billing/adapter-typeorm';
import { webhooksPersistence } from '@lnk/webhooks/adapter-typeorm';
import { idempotencyPersistence } from '@lnk/shared/idempotency';

/** Every context's tables and migrations, in one list for the application's DataSource. */
export const PERSISTENCE_MODULES: PersistenceModule[] = [
  identityPersistence,
  linksPersistence,
  domainsPersistence,
  analyticsPersistence,
  billingPersistence,
  webhooksPersistence,
  idempotencyPersistence,
];
