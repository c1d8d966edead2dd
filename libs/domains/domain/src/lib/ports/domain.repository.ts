import { Page, PageRequest } from '@lnk/shared/kernel';
import { Domain } from '../model/domain.entity';

export abstract class DomainRepository {
  /** Stores the domain if the owner holds fewer than `limit`, atomically (else QuotaExceededError). */
  abstract insertWithinQuota(domain: Domain, limit: number): Promise<void>;
  abstract findOfOwner(ownerId: string, id: string): Promise<Domain | null>;
  abstract findVerifiedOfOwner(ownerId: string, id: string): Promise<Domain | null>;
  abstract findVerifiedByName(name: string): Promise<Domain | null>;
  /** Newest first; `query` matches the name anywhere, case-insensitively. */
  abstract listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<Domain>>;
  abstract hasOfOwner(ownerId: string, name: string): Promise<boolean>;
  abstract isVerifiedByAnother(name: string, ownerId: string): Promise<boolean>;
  /** Saves the verification; another account having verified the name first is a ValidationError on `name`. */
  abstract markVerified(domain: Domain): Promise<void>;
  /** Verified domains whose last check is older than `before` (or never made), least recently checked first. */
  abstract listVerifiedCheckedBefore(before: Date, limit: number): Promise<Domain[]>;
  /** Saves a lost verification if the domain is still verified; false: it was not (nothing changed). */
  abstract loseVerification(domain: Domain): Promise<boolean>;
  /** Saves when the domain was last checked. */
  abstract markChecked(domain: Domain): Promise<void>;
  abstract deleteOfOwner(ownerId: string, id: string): Promise<boolean>;
  abstract countOfOwner(ownerId: string): Promise<number>;
  abstract deleteAllOfOwner(ownerId: string): Promise<void>;
}
