import { TargetDevice } from '../model/link-options';

/** What a link's targets are chosen by. */
export interface VisitorPlace {
  /** `ios` and `android` by the OS, `desktop` for a desktop browser; null when none of these (or unknown). */
  device: TargetDevice | null;
  /** ISO 3166-1 alpha-2 of the client address, or null when unknown. */
  country: string | null;
}

/**
 * Where a visitor is and on what (bridged to the analytics context's click dimensions: the same parser and
 * offline country table). Asked only for links with targets, on the thread answering redirects: must not wait.
 */
export abstract class VisitorLocator {
  abstract locate(userAgent: string | undefined, ip: string): VisitorPlace;
}
