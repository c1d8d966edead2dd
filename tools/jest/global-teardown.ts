import { dropRunDatabases, TEST_DB_ENV } from '../../libs/shared/testing/src/lib/test-database';

type Stoppable = { stop(): Promise<unknown> };
const state = globalThis as typeof globalThis & { __lnkTestContainer?: Stoppable; __lnkTornDown?: boolean };

/** Drops whatever databases of this run are left and stops the container, once. */
export default async function globalTeardown(): Promise<void> {
  if (state.__lnkTornDown) return;
  state.__lnkTornDown = true;
  const adminUrl = process.env[TEST_DB_ENV.adminUrl];
  const runId = process.env[TEST_DB_ENV.runId];
  if (process.env[TEST_DB_ENV.kind] === 'postgres' && adminUrl && runId) await dropRunDatabases(adminUrl, runId);
  await state.__lnkTestContainer?.stop();
}
