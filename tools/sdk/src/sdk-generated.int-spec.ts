import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@lnk/shared/testing';
import { generateSdk } from './sdk-generation';
import { SDK_DOCUMENT, SDK_GENERATED, staleFiles } from './stale-files';

const root = join(__dirname, '..', '..', '..');

// Issue 30: CI regenerates the SDK and fails on any difference from what is committed.
describe('libs/sdk, generated from the OpenAPI document', () => {
  it('is, byte for byte, what `npm run sdk:generate` makes of the app as it is now', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lnk-sdk-'));
    const database = await createTestDatabase();
    try {
      const fresh = { document: join(out, 'openapi.json'), generated: join(out, 'generated') };
      await generateSdk(root, fresh, database.config);
      const stale = staleFiles({ document: join(root, SDK_DOCUMENT), generated: join(root, SDK_GENERATED) }, fresh);
      const advice = stale.length ? ['the committed SDK is not what the app declares now: run `npm run sdk:generate` and commit libs/sdk'] : [];
      expect([...stale, ...advice]).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
      await database.drop();
    }
  }, 120_000);
});
