// Runs the generator on an OpenAPI document file: `node tools/sdk/generate-client.mjs <openapi.json> <out dir>`.
// Plain Node (the generator ships ES modules only), shared by `npm run sdk:generate` and the check that the
// committed client is what it makes now (apps/api/test/sdk-generated.e2e-spec.ts). Every option that shapes
// the output is here, so both write the same bytes.
import { createClient } from '@hey-api/openapi-ts';
import { resolve } from 'node:path';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write('usage: node tools/sdk/generate-client.mjs <openapi.json> <out dir>\n');
  process.exit(2);
}

await createClient({
  input: resolve(input),
  output: {
    path: resolve(output),
    clean: true,
    // The package is ES modules under `moduleResolution: nodenext`: relative imports name their .js file.
    module: { extension: '.js' },
    // No formatter: its version or settings on one machine would change the bytes.
    postProcess: [],
    tsConfigPath: null,
  },
  // Failures go to stderr, not to a log file in the working folder.
  logs: { file: false, level: 'warn' },
  plugins: [
    '@hey-api/typescript',
    // Errors are returned, not thrown: `{ data, error, response }`, `error` typed as the error envelope.
    { name: '@hey-api/client-fetch', throwOnError: false },
    { name: '@hey-api/sdk', operations: 'flat', paramsStructure: 'grouped' },
  ],
});
