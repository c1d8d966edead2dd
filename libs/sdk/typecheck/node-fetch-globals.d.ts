// The workspace type-checks the SDK with Node's types, not the DOM's (server code must not see `window`).
// Node's types make fetch's classes global but not `BodyInit`, which the generated client names in its
// function bodies (no declaration it emits does): the same type, from the fetch Node runs. The package's
// own build (tsconfig.lib.json) uses the DOM library instead and does not include this file.
type BodyInit = import('undici-types').BodyInit;
