import { type Client, createClient, createConfig } from './generated/client/index.js';
import type { ClientOptions } from './generated/types.gen.js';

export interface LnkClientOptions {
  /** Where the API answers, e.g. `https://lnk.example.com` (or `https://lnk.example.com/v1`). */
  baseUrl: string;
  /** A personal access token (`tkn_…`) or an OAuth access token; a function is asked before each request. */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A client of one lnk service for the generated operations (`createLink({ client, body })`). An answer
 * with an error status is returned as `error`, the error envelope typed with its `code`; a request that
 * got no answer at all (network failure, abort) throws fetch's own error instead of being returned as
 * `error`, so that `error` is always what the server said.
 */
export function createLnkClient(options: LnkClientOptions): Client {
  const ownFetch = options.fetch ? { fetch: options.fetch } : {};
  const client = createClient(createConfig<ClientOptions>({ baseUrl: options.baseUrl, auth: options.token, ...ownFetch }));
  client.interceptors.error.use((error, response) => {
    if (!response) throw error;
    return error;
  });
  return client;
}
