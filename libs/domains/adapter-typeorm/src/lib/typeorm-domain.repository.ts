import { DataSource } from 'typeorm';
import { Domain, DomainProps, DomainRepository } from '@lnk/domains/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import {
  afterId,
  bool,
  containsPattern,
  countOf,
  firstOf,
  guardUnique,
  OwnedRowsRepository,
  PersistenceModule,
  Quota,
  Row,
  rowsOf,
  sql,
  text,
  textOrNull,
  timestamp,
  timestampOrNull,
} from '@lnk/shared/database';
import { DomainsCustomDomains1763800200000 } from './migrations/1763800200000-domains-custom-domains';
import { DomainsVerificationChallenge1763900100000 } from './migrations/1763900100000-domains-verification-challenge';
import { DomainsUsageCounter1764000320000 } from './migrations/1764000320000-domains-usage-counter';

const domainProps = (r: Row): DomainProps => ({
  id: text(r, 'id'),
  ownerId: text(r, 'owner_id'),
  name: text(r, 'name'),
  challenge: text(r, 'challenge'),
  isVerified: bool(r, 'is_verified'),
  verifiedAt: timestampOrNull(r, 'verified_at'),
  verificationLostAt: timestampOrNull(r, 'verification_lost_at'),
  verificationLostReason: textOrNull(r, 'verification_lost_reason'),
  checkedAt: timestampOrNull(r, 'checked_at'),
  createdAt: timestamp(r, 'created_at'),
  updatedAt: timestamp(r, 'updated_at'),
});
const toDomain = (r: Row) => new Domain(domainProps(r));

const NAME_ADDED = { constraint: 'custom_domains_owner_name_key', field: 'name', message: 'you have already added this domain' };
const VERIFIED_BY_ANOTHER = {
  constraint: 'custom_domains_verified_name_key',
  field: 'name',
  message: 'another account has verified this domain',
};

/** The owner's row in `domains_usage` (see its migration): what the quota and the list's total read. */
const DOMAINS_USAGE = { table: 'domains_usage', resource: 'domains' };

export const domainsPersistence: PersistenceModule = {
  migrations: [DomainsCustomDomains1763800200000, DomainsVerificationChallenge1763900100000, DomainsUsageCounter1764000320000],
};

export class TypeormDomainRepository extends OwnedRowsRepository<DomainProps> implements DomainRepository {
  constructor(dataSource: DataSource) {
    super(dataSource, 'custom_domains', DOMAINS_USAGE, NAME_ADDED);
  }

  private async one(where: string, params: unknown[]): Promise<Domain | null> {
    return firstOf(await sql(this.dataSource, `SELECT * FROM custom_domains WHERE ${where}`, params), toDomain);
  }

  protected insertCounted(p: DomainProps, quota: Quota): Promise<void> {
    return this.insertLockingFirst(quota, () =>
      sql(
        this.dataSource,
        'INSERT INTO custom_domains (id, owner_id, name, challenge, is_verified, ' +
          'verified_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [p.id, p.ownerId, p.name, p.challenge, p.isVerified, p.verifiedAt, p.createdAt, p.updatedAt],
      ),
    );
  }

  findOfOwner(ownerId: string, id: string): Promise<Domain | null> {
    return this.one('id = $1 AND owner_id = $2', [id, ownerId]);
  }

  findVerifiedOfOwner(ownerId: string, id: string): Promise<Domain | null> {
    return this.one('id = $1 AND owner_id = $2 AND is_verified', [id, ownerId]);
  }

  findVerifiedByName(name: string): Promise<Domain | null> {
    return this.one('name = $1 AND is_verified', [name]);
  }

  async listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<Domain>> {
    const params: unknown[] = [ownerId];
    let where = 'owner_id = $1';
    if (query) {
      params.push(containsPattern(query.toLowerCase()));
      where += ' AND name LIKE $2';
    }
    const pageParams = [...params];
    const [items, total] = await Promise.all([
      sql(
        this.dataSource,
        `SELECT * FROM custom_domains WHERE ${where}${afterId(page, pageParams)} ORDER BY id DESC LIMIT ${page.rows} OFFSET ${page.offset}`,
        pageParams,
      ),
      query ? countOf(this.dataSource, `SELECT count(*) AS n FROM custom_domains WHERE ${where}`, params) : this.countOfOwner(ownerId),
    ]);
    return pageOf(rowsOf(items, toDomain), total, page);
  }

  async hasOfOwner(ownerId: string, name: string): Promise<boolean> {
    return (await this.one('owner_id = $1 AND name = $2', [ownerId, name])) !== null;
  }

  async isVerifiedByAnother(name: string, ownerId: string): Promise<boolean> {
    return (await this.one('name = $1 AND is_verified AND owner_id <> $2', [name, ownerId])) !== null;
  }

  async markVerified(domain: Domain): Promise<void> {
    const p = domain.toProps();
    await guardUnique(VERIFIED_BY_ANOTHER, () =>
      sql(
        this.dataSource,
        'UPDATE custom_domains SET is_verified = true, verified_at = $2, verification_lost_at = NULL, ' +
          'verification_lost_reason = NULL, checked_at = $2, updated_at = $2 WHERE id = $1',
        [p.id, p.verifiedAt],
      ),
    );
  }

  async listVerifiedCheckedBefore(before: Date, limit: number): Promise<Domain[]> {
    const result = await sql(
      this.dataSource,
      'SELECT * FROM custom_domains WHERE is_verified AND (checked_at IS NULL OR checked_at < $1) ' +
        `ORDER BY checked_at ASC NULLS FIRST, id LIMIT ${Math.max(1, Math.floor(limit))}`,
      [before],
    );
    return rowsOf(result, toDomain);
  }

  async loseVerification(domain: Domain): Promise<boolean> {
    const p = domain.toProps();
    const result = await sql(
      this.dataSource,
      'UPDATE custom_domains SET is_verified = false, verified_at = NULL, verification_lost_at = $2, ' +
        'verification_lost_reason = $3, checked_at = $2, updated_at = $2 WHERE id = $1 AND is_verified',
      [p.id, p.verificationLostAt, p.verificationLostReason],
    );
    return result.affected > 0;
  }

  async markChecked(domain: Domain): Promise<void> {
    await sql(this.dataSource, 'UPDATE custom_domains SET checked_at = $2 WHERE id = $1', [domain.id, domain.checkedAt]);
  }
}
