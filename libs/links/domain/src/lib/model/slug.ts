import { ValidationError } from '@lnk/shared/kernel';

export const SLUG_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const GENERATED_SLUG_LENGTH = 7;

/** Paths of the service itself (and ones it may use later) that no short link may take. */
export const RESERVED_SLUGS = new Set([
  'oauth',
  'user',
  'users',
  'health',
  'docs',
  'auth',
  'api',
  'v1',
  'v2',
  'v3',
  'billing',
  'metrics',
  'openapi.json',
  'tls',
  'app',
  'mcp',
  'admin',
  'static',
  'assets',
  'login',
  'logout',
  'signup',
  'favicon.ico',
  'robots.txt',
  'sitemap.xml',
  '.well-known',
]);

/** A slug a user chose: 1-64 of [A-Za-z0-9_-], not a reserved path. Lookup is case-sensitive. */
export function checkSlug(value: unknown): string {
  if (typeof value !== 'string' || !SLUG_PATTERN.test(value)) {
    throw ValidationError.field('slug', 'slug must be 1 to 64 characters of letters, digits, "-" and "_"');
  }
  if (RESERVED_SLUGS.has(value.toLowerCase())) throw ValidationError.field('slug', `"${value}" is reserved by the service`);
  return value;
}
