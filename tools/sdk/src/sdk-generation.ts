import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DatabaseConfig } from '@lnk/shared/database';
import { buildApiDocument, documentText } from './api-document';
import type { SdkTarget } from './stale-files';

/**
 * The document of the app built in-process, written to `target.document`, then the client the generator
 * makes of that file (tools/sdk/generate-client.mjs, in a Node process of its own: the generator ships ES
 * modules only), written to `target.generated`.
 */
export async function generateSdk(root: string, target: SdkTarget, database?: DatabaseConfig): Promise<void> {
  await writeFile(target.document, documentText(await buildApiDocument(database)));
  await promisify(execFile)(process.execPath, [join(root, 'tools', 'sdk', 'generate-client.mjs'), target.document, target.generated], { cwd: root, timeout: 120_000 });
}
