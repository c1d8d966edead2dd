import { RedirectTarget } from './link.repository';

/**
 * What the redirect reads: a link's target by its namespace (null: the default short domain) and slug,
 * and the id of the verified custom domain a host names. An answer may come at once (a cached one: the
 * redirect's hot path then awaits nothing) or as a promise.
 */
export abstract class RedirectLookup {
  abstract targetOf(domainId: string | null, slug: string): RedirectTarget | null | Promise<RedirectTarget | null>;
  /** `host` as `shortUrlHost` spells it. */
  abstract domainIdOf(host: string): string | null | Promise<string | null>;
}

/** Told when a host may have gained or lost a verified custom domain (whoever remembers hosts forgets it). */
export abstract class ShortHostChanges {
  abstract hostChanged(host: string): void;
}
