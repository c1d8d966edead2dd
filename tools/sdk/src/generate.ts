import { join } from 'node:path';
import { generateSdk } from './sdk-generation';
import { SDK_DOCUMENT, SDK_GENERATED } from './stale-files';

/**
 * `npm run sdk:generate`: libs/sdk/openapi.json from the app built in-process (no server to run, and an
 * in-memory database), then libs/sdk/src/generated/ from that document. Both are committed;
 * tools/sdk/src/sdk-generated.int-spec.ts fails when either differs from what this writes.
 */
// Run from dist/tools/sdk/src (the build keeps the source tree's layout).
const root = join(__dirname, '..', '..', '..', '..');

generateSdk(root, { document: join(root, SDK_DOCUMENT), generated: join(root, SDK_GENERATED) }).then(
  () => process.stdout.write(`sdk: wrote ${SDK_DOCUMENT} and ${SDK_GENERATED}/\n`),
  (error: unknown) => {
    process.stderr.write(`sdk: generation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
