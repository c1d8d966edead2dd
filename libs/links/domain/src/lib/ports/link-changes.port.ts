/** Told when a link's redirect may have changed (created, updated, disabled, deleted). */
export abstract class LinkChanges {
  abstract linkChanged(domainId: string | null, slug: string): void;
}
