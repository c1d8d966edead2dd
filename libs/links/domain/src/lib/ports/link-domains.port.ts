/** A custom domain as links see it. */
export interface LinkDomain {
  id: string;
  name: string;
}

/** What links need to know of the domains context (bridged in the app). */
export abstract class LinkDomains {
  /** The owner's domain, if it is verified; null otherwise (unknown, foreign or unverified). */
  abstract verifiedDomainOf(ownerId: string, domainId: string): Promise<LinkDomain | null>;
  /** The verified custom domain of that name, whoever owns it. */
  abstract verifiedDomainByName(name: string): Promise<LinkDomain | null>;
  /** Names of the owner's domains by id (a domain deleted meanwhile is simply absent). */
  abstract namesOf(ownerId: string, domainIds: string[]): Promise<Map<string, string>>;
}
