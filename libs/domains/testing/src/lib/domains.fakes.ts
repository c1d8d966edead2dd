import { Domain, DomainProps, DomainRepository } from '@lnk/domains/domain';
import { checkRoomFor, Page, PageRequest, pageOfNewestFirst, ValidationError } from '@lnk/shared/kernel';

// Rows are copies of props; every read builds a new Domain. Each save writes only the columns the
// adapter's statement writes, so a use case relying on another save path's fields is caught.
const copy = (p: DomainProps): DomainProps => ({ ...p });
const newestFirst = (a: DomainProps, b: DomainProps) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export class MemoryDomainRepository extends DomainRepository {
  readonly rows = new Map<string, DomainProps>();

  private read(p: DomainProps | undefined): Domain | null {
    return p ? new Domain(copy(p)) : null;
  }

  private find(match: (d: DomainProps) => boolean): Domain | null {
    return this.read([...this.rows.values()].find(match));
  }

  private ofOwner(ownerId: string): DomainProps[] {
    return [...this.rows.values()].filter((d) => d.ownerId === ownerId);
  }

  private write(id: string, changes: Partial<DomainProps>): void {
    const row = this.rows.get(id);
    if (row) this.rows.set(id, { ...row, ...changes });
  }

  /** Stored copy of a domain's props (for assertions). */
  stored(id: string): DomainProps | undefined {
    const row = this.rows.get(id);
    return row && copy(row);
  }

  async insertWithinQuota(domain: Domain, limit: number): Promise<void> {
    const p = domain.toProps();
    checkRoomFor('domains', this.ofOwner(p.ownerId).length, limit);
    if (this.ofOwner(p.ownerId).some((d) => d.name === p.name)) throw ValidationError.field('name', 'you have already added this domain');
    // The adapter inserts a new domain without its loss or check columns.
    this.rows.set(p.id, { ...copy(p), verificationLostAt: null, verificationLostReason: null, checkedAt: null });
  }

  async findOfOwner(ownerId: string, id: string): Promise<Domain | null> {
    return this.find((d) => d.id === id && d.ownerId === ownerId);
  }

  async findVerifiedOfOwner(ownerId: string, id: string): Promise<Domain | null> {
    return this.find((d) => d.id === id && d.ownerId === ownerId && d.isVerified);
  }

  async findVerifiedByName(name: string): Promise<Domain | null> {
    return this.find((d) => d.name === name && d.isVerified);
  }

  async listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<Domain>> {
    const q = query?.toLowerCase();
    const mine = this.ofOwner(ownerId)
      .filter((d) => !q || d.name.includes(q))
      .sort(newestFirst);
    const found = pageOfNewestFirst(mine, page);
    return { ...found, items: found.items.map((d) => new Domain(copy(d))) };
  }

  async hasOfOwner(ownerId: string, name: string): Promise<boolean> {
    return this.ofOwner(ownerId).some((d) => d.name === name);
  }

  async isVerifiedByAnother(name: string, ownerId: string): Promise<boolean> {
    return [...this.rows.values()].some((d) => d.name === name && d.isVerified && d.ownerId !== ownerId);
  }

  async markVerified(domain: Domain): Promise<void> {
    const p = domain.toProps();
    // One verified holder per name: the adapter's partial unique index.
    if ([...this.rows.values()].some((d) => d.name === p.name && d.isVerified && d.id !== p.id))
      throw ValidationError.field('name', 'another account has verified this domain');
    this.write(p.id, {
      isVerified: true,
      verifiedAt: p.verifiedAt,
      verificationLostAt: null,
      verificationLostReason: null,
      checkedAt: p.verifiedAt,
      updatedAt: p.verifiedAt as Date,
    });
  }

  async listVerifiedCheckedBefore(before: Date, limit: number): Promise<Domain[]> {
    const at = (d: DomainProps) => d.checkedAt?.getTime() ?? -Infinity;
    return [...this.rows.values()]
      .filter((d) => d.isVerified && (d.checkedAt === null || d.checkedAt < before))
      .sort((a, b) => at(a) - at(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, Math.max(1, Math.floor(limit)))
      .map((d) => new Domain(copy(d)));
  }

  async loseVerification(domain: Domain): Promise<boolean> {
    const p = domain.toProps();
    const row = this.rows.get(p.id);
    if (!row?.isVerified) return false;
    const at = p.verificationLostAt as Date;
    this.write(p.id, {
      isVerified: false,
      verifiedAt: null,
      verificationLostAt: at,
      verificationLostReason: p.verificationLostReason,
      checkedAt: at,
      updatedAt: at,
    });
    return true;
  }

  async markChecked(domain: Domain): Promise<void> {
    this.write(domain.id, { checkedAt: domain.checkedAt });
  }

  async deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.ownerId !== ownerId) return false;
    return this.rows.delete(id);
  }

  async countOfOwner(ownerId: string): Promise<number> {
    return this.ofOwner(ownerId).length;
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    for (const d of this.ofOwner(ownerId)) this.rows.delete(d.id);
  }
}
