/** How many links use a domain (the links context answers, through a bridge). */
export abstract class DomainUsage {
  abstract linksUsing(ownerId: string, domainId: string): Promise<number>;
}
