/** What statistics ask the links context about a filter: analytics keeps link ids, links knows owners and tags. */
export abstract class StatsLinks {
  /** Whether the link exists and is the owner's. */
  abstract isOwnersLink(ownerId: string, linkId: string): Promise<boolean>;
  /** The ids of the owner's links that carry the tag, or null when the tag is not the owner's. */
  abstract linksTagged(ownerId: string, tagId: string): Promise<string[] | null>;
}
