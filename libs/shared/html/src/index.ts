// The HTML pages' helpers, with no framework: the API's Nest routes and the short-URL handler (node:http,
// in apps/redirect too) serve pages with the same escaping and the same headers.
export * from './lib/html-page';
