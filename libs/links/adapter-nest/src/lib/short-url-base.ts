import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { LinksSettings } from './links.settings';

/** How short URLs are written: the default short domain's base (SHORT_BASE_URL), and the scheme of custom domains' ones. */
export interface ShortUrlBase {
  readonly shortBaseUrl: string;
  readonly customDomainScheme: 'http' | 'https';
}

export type RequestScheme = 'http' | 'https';

/**
 * The scheme the API request came with: the socket's, or behind a TRUST_PROXY proxy its last
 * X-Forwarded-Proto (Fastify's `request.protocol` believes the header only from a trusted hop). Anything
 * but `https` is `http`, so a header cannot write another scheme into short URLs.
 */
export const CurrentScheme = createParamDecorator((_data: unknown, context: ExecutionContext): RequestScheme => {
  return context.switchToHttp().getRequest<FastifyRequest>().protocol?.toLowerCase() === 'https' ? 'https' : 'http';
});

/**
 * The two bases an answer may be written with, made once: CUSTOM_DOMAIN_SCHEME fixes the scheme of custom
 * domains' short URLs, or (`request`) the request's scheme picks it.
 */
export class ShortUrlBases {
  private readonly byScheme: Record<RequestScheme, ShortUrlBase>;
  /** Without a request (the CLI): the configured scheme, SHORT_BASE_URL's for `request`. */
  readonly fixed: ShortUrlBase;

  constructor(private readonly config: Pick<LinksSettings, 'shortBaseUrl' | 'customDomainScheme'>) {
    const { shortBaseUrl, customDomainScheme } = config;
    this.byScheme = { http: { shortBaseUrl, customDomainScheme: 'http' }, https: { shortBaseUrl, customDomainScheme: 'https' } };
    const fallback: RequestScheme = new URL(shortBaseUrl).protocol === 'https:' ? 'https' : 'http';
    this.fixed = this.byScheme[customDomainScheme === 'request' ? fallback : customDomainScheme];
  }

  of(scheme: RequestScheme): ShortUrlBase {
    return this.config.customDomainScheme === 'request' ? this.byScheme[scheme] : this.fixed;
  }
}
