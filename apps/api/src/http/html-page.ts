// The app's own pages (and those of contexts whose routes are still the app's) use the shared helpers.
export { escapeHtml, pageHeaders, prefersHtml } from '@lnk/shared/html';
