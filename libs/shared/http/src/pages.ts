// The HTML page helpers alone, without Nest: the short-URL handler (libs/links/adapter-http) serves its
// pages from the redirect app, which loads no framework. The HTTP faces take them from the main entry.
export * from './lib/pages/html-page';
