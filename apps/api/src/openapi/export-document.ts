import { writeFileSync } from 'node:fs';
import { buildApiDocument, documentText } from './document-export';

/**
 * `node dist/apps/api/src/openapi/export-document.js <file>`: the OpenAPI document written to a file
 * without a server to run or a database to set up (`npm run sdk:generate` makes libs/sdk from it).
 */
const [file] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node dist/apps/api/src/openapi/export-document.js <file>\n');
  process.exit(2);
}
buildApiDocument().then(
  (document) => writeFileSync(file, documentText(document)),
  (error: unknown) => {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`the OpenAPI document could not be built: ${detail}\n`);
    process.exitCode = 1;
  },
);
