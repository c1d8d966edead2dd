/**
 * What the links context takes from the app's configuration, validated there once. An abstract class, so
 * it is the Nest token its consumers inject by (ShortUrlBases, the use cases that check destinations).
 */
export abstract class LinksSettings {
  /** Host names of the service itself: no destination may point at them (its short URLs would loop). */
  abstract readonly ownHosts: string[];
  /** SHORT_BASE_URL: the base of short URLs on the default short domain. */
  abstract readonly shortBaseUrl: string;
  /** CUSTOM_DOMAIN_SCHEME: the scheme of custom domains' short URLs, or `request`: the API request's. */
  abstract readonly customDomainScheme: 'http' | 'https' | 'request';
}
