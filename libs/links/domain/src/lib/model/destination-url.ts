import { ValidationError } from '@lnk/shared/kernel';

export const MAX_URL_LENGTH = 2048;

/**
 * A destination: an absolute http(s) URL of at most 2048 characters, not on one of the service's own
 * short domains (a short link to a short link could loop).
 */
export function checkDestinationUrl(value: unknown, ownHosts: readonly string[]): string {
  if (typeof value !== 'string' || value.trim() === '') throw ValidationError.field('url', 'url is required');
  const url = value.trim();
  if (url.length > MAX_URL_LENGTH) throw ValidationError.field('url', `url must be at most ${MAX_URL_LENGTH} characters`);
  if (!URL.canParse(url)) throw ValidationError.field('url', 'url must be an absolute URL');
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw ValidationError.field('url', 'url must use http or https');
  if (!parsed.hostname) throw ValidationError.field('url', 'url must name a host');
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (ownHosts.some((own) => host === own)) throw ValidationError.field('url', 'url may not point at a short domain of this service');
  return url;
}
