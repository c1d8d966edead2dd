// The generated operations and types (src/generated: never edited by hand, `npm run sdk:generate`), and
// the one hand-written piece: a client bound to a service and a token.
export * from './generated/index.js';
export { type Client, createClient, createConfig } from './generated/client/index.js';
export { createLnkClient, type LnkClientOptions } from './lnk-client.js';
