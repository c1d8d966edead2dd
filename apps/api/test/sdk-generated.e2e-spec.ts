import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase } from '@lnk/shared/testing';
import { buildApiDocument, documentText } from '../src/openapi/document-export';
import { SDK_DOCUMENT, SDK_GENERATED, staleFiles } from './support/sdk-files';

const root = join(__dirname, '..', '..', '..');

// Issue 30: CI regenerates the SDK and fails on any difference from what is committed. The same steps as
// `npm run sdk:generate`, into a temporary folder: the document of the app built in-process, then the
// generator (tools/sdk/generate-client.mjs, in a Node process of its own: it ships ES modules only).
describe('libs/sdk, generated from the OpenAPI document', () => {
  it('is, byte for byte, what `npm run sdk:generate` makes of the app as it is now', async () => {
    const out = mkdtempSync(join(tmpdir(), 'lnk-sdk-'));
    const database = await createTestDatabase();
    // Settings of the shell the generation runs in must not reach the document (its servers are relative).
    const shell = { PORT: process.env['PORT'], PUBLIC_BASE_URL: process.env['PUBLIC_BASE_URL'] };
    Object.assign(process.env, { PORT: '4999', PUBLIC_BASE_URL: 'https://elsewhere.example/base' });
    try {
      const fresh = { document: join(out, 'openapi.json'), generated: join(out, 'generated') };
      writeFileSync(fresh.document, documentText(await buildApiDocument(database.config)));
      const generator = join(root, 'tools', 'sdk', 'generate-client.mjs');
      await promisify(execFile)(process.execPath, [generator, fresh.document, fresh.generated], { cwd: root, timeout: 60_000 });
      const stale = staleFiles({ document: join(root, SDK_DOCUMENT), generated: join(root, SDK_GENERATED) }, fresh);
      const advice = stale.length
        ? ['the committed SDK is not what the app declares now: run `npm run sdk:generate`, commit libs/sdk']
        : [];
      expect([...stale, ...advice]).toEqual([]);
    } finally {
      for (const [name, value] of Object.entries(shell)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      rmSync(out, { recursive: true, force: true });
      await database.drop();
    }
  }, 120_000);
});
