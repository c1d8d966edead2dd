import { DataSource } from 'typeorm';
import { ExpiredLink, ExpiringLinks } from '@lnk/links/domain';
import { Row, rowsOf, sql, text, textOrNull, timestamp } from '@lnk/shared/database';

const toExpired = (r: Row): ExpiredLink => ({
  id: text(r, 'id'),
  ownerId: text(r, 'owner_id'),
  domainId: textOrNull(r, 'domain_id'),
  slug: text(r, 'slug'),
  expiresAt: timestamp(r, 'expires_at'),
});

/** Links by expiry, through the partial index on `expires_at` (links without one are not in it). */
export class TypeormExpiringLinks extends ExpiringLinks {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async expiredBetween(after: Date, upTo: Date, ownerIds: string[], limit: number): Promise<ExpiredLink[]> {
    const result = await sql(
      this.dataSource,
      `SELECT id, owner_id, domain_id, slug, expires_at FROM links
        WHERE expires_at > $1 AND expires_at <= $2 AND owner_id = ANY ($3::char(24)[])
        ORDER BY expires_at, id LIMIT $4`,
      [after, upTo, ownerIds, limit],
    );
    return rowsOf(result, toExpired);
  }
}
