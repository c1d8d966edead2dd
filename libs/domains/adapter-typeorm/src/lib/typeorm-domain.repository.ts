import { DataSource, EntitySchema } from 'typeorm';
import { Domain, DomainRepository } from '@lnk/domains/domain';
import { Page, PageRequest, pageOf, QuotaExceededError, ValidationError } from '@lnk/shared/kernel';
import { containsPattern, inTransaction, isUniqueViolation, lockKey, PersistenceModule, sql } from '@lnk/shared/database';
import { DomainsCustomDomains1763800200000 } from './migrations/1763800200000-domains-custom-domains';
import { DomainsVerificationChallenge1763900100000 } from './migrations/1763900100000-domains-verification-challenge';

type Row = Record<string, unknown>;

const dateOrNull = (value: unknown) => (value ? new Date(value as string) : null);

const toDomain = (r: Row) =>
  new Domain({
    id: r['id'] as string,
    ownerId: r['owner_id'] as string,
    name: r['name'] as string,
    challenge: r['challenge'] as string,
    isVerified: r['is_verified'] as boolean,
    verifiedAt: dateOrNull(r['verified_at']),
    verificationLostAt: dateOrNull(r['verification_lost_at']),
    verificationLostReason: (r['verification_lost_reason'] as string | null) ?? null,
    checkedAt: dateOrNull(r['checked_at']),
    createdAt: new Date(r['created_at'] as string),
    updatedAt: new Date(r['updated_at'] as string),
  });

export const CustomDomainSchema = new EntitySchema<{ id: string }>({
  name: 'CustomDomain',
  tableName: 'custom_domains',
  columns: { id: { type: 'char', length: 24, primary: true } },
});

export const domainsPersistence: PersistenceModule = {
  entities: [CustomDomainSchema],
  migrations: [DomainsCustomDomains1763800200000, DomainsVerificationChallenge1763900100000],
};

export class TypeormDomainRepository extends DomainRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private async one(where: string, params: unknown[]): Promise<Domain | null> {
    const { rows } = await sql(this.dataSource, `SELECT * FROM custom_domains WHERE ${where}`, params);
    return rows[0] ? toDomain(rows[0]) : null;
  }

  async insertWithinQuota(domain: Domain, limit: number): Promise<void> {
    const p = domain.toProps();
    try {
      await inTransaction(this.dataSource, async () => {
        await lockKey(this.dataSource, `domains:${p.ownerId}`);
        const used = await this.countOfOwner(p.ownerId);
        if (used >= limit) throw new QuotaExceededError('domains', used, limit);
        await sql(
          this.dataSource,
          'INSERT INTO custom_domains (id, owner_id, name, challenge, is_verified, verified_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [p.id, p.ownerId, p.name, p.challenge, p.isVerified, p.verifiedAt, p.createdAt, p.updatedAt],
        );
      });
    } catch (error) {
      if (isUniqueViolation(error, 'custom_domains_owner_name_key')) throw ValidationError.field('name', 'you have already added this domain');
      throw error;
    }
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
    const [items, total] = await Promise.all([
      sql(this.dataSource, `SELECT * FROM custom_domains WHERE ${where} ORDER BY id DESC LIMIT ${page.limit} OFFSET ${page.start}`, params),
      sql<{ n: string }>(this.dataSource, `SELECT count(*) AS n FROM custom_domains WHERE ${where}`, params),
    ]);
    return pageOf(items.rows.map(toDomain), Number(total.rows[0].n), page);
  }

  async hasOfOwner(ownerId: string, name: string): Promise<boolean> {
    return (await this.one('owner_id = $1 AND name = $2', [ownerId, name])) !== null;
  }

  async isVerifiedByAnother(name: string, ownerId: string): Promise<boolean> {
    return (await this.one('name = $1 AND is_verified AND owner_id <> $2', [name, ownerId])) !== null;
  }

  async markVerified(domain: Domain): Promise<void> {
    const p = domain.toProps();
    try {
      await sql(
        this.dataSource,
        'UPDATE custom_domains SET is_verified = true, verified_at = $2, verification_lost_at = NULL, verification_lost_reason = NULL, checked_at = $2, updated_at = $2 WHERE id = $1',
        [p.id, p.verifiedAt],
      );
    } catch (error) {
      if (isUniqueViolation(error, 'custom_domains_verified_name_key')) throw ValidationError.field('name', 'another account has verified this domain');
      throw error;
    }
  }

  async listVerifiedCheckedBefore(before: Date, limit: number): Promise<Domain[]> {
    const { rows } = await sql(
      this.dataSource,
      `SELECT * FROM custom_domains WHERE is_verified AND (checked_at IS NULL OR checked_at < $1) ORDER BY checked_at ASC NULLS FIRST, id LIMIT ${Math.max(1, Math.floor(limit))}`,
      [before],
    );
    return rows.map(toDomain);
  }

  async loseVerification(domain: Domain): Promise<boolean> {
    const p = domain.toProps();
    const result = await sql(
      this.dataSource,
      'UPDATE custom_domains SET is_verified = false, verified_at = NULL, verification_lost_at = $2, verification_lost_reason = $3, checked_at = $2, updated_at = $2 WHERE id = $1 AND is_verified',
      [p.id, p.verificationLostAt, p.verificationLostReason],
    );
    return result.affected > 0;
  }

  async markChecked(domain: Domain): Promise<void> {
    await sql(this.dataSource, 'UPDATE custom_domains SET checked_at = $2 WHERE id = $1', [domain.id, domain.checkedAt]);
  }

  async deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    return (await sql(this.dataSource, 'DELETE FROM custom_domains WHERE id = $1 AND owner_id = $2', [id, ownerId])).affected > 0;
  }

  async countOfOwner(ownerId: string): Promise<number> {
    const { rows } = await sql<{ n: string }>(this.dataSource, 'SELECT count(*) AS n FROM custom_domains WHERE owner_id = $1', [ownerId]);
    return Number(rows[0].n);
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM custom_domains WHERE owner_id = $1', [ownerId]);
  }
}
