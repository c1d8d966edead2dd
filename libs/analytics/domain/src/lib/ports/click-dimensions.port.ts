import { VisitorTraits } from '../model/click-dimension';

/**
 * Derives a visit's dimensions from what its request carried. Called for each counted visit, on the
 * thread that answers redirects: an adapter remembers its answers (visitors' User-Agents, addresses and
 * referrers repeat), within a bound, so a repeated input costs a comparison or a map lookup.
 */
export abstract class ClickDimensions {
  abstract traitsOf(userAgent: string | undefined, ip: string, referer: string | undefined): VisitorTraits;
}
