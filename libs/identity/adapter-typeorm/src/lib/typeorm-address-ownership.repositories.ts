import { DataSource } from 'typeorm';
import { EmailChangeLog, IdpIdentity, IdpIdentityRepository } from '@lnk/identity/domain';
import { int, Row, sql, text, timestampOrNull } from '@lnk/shared/database';

const changeRequests = (r: Row) => ({ count: int(r, 'count'), oldest: timestampOrNull(r, 'oldest') });

export class TypeormIdpIdentityRepository extends IdpIdentityRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async findUserId(issuer: string, subject: string): Promise<string | null> {
    const { rows } = await sql(this.dataSource, 'SELECT user_id FROM idp_identities WHERE issuer = $1 AND subject = $2', [issuer, subject]);
    return rows.length ? text(rows[0], 'user_id') : null;
  }

  async link(identity: IdpIdentity): Promise<boolean> {
    const { affected } = await sql(
      this.dataSource,
      'INSERT INTO idp_identities (issuer, subject, user_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (issuer, subject) DO NOTHING',
      [identity.issuer, identity.subject, identity.userId, identity.createdAt],
    );
    return affected === 1;
  }
}

export class TypeormEmailChangeLog extends EmailChangeLog {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async record(userId: string, at: Date): Promise<void> {
    // Rows older than any window asked about are of no further use.
    await sql(this.dataSource, `DELETE FROM email_change_requests WHERE user_id = $1 AND requested_at < $2`, [
      userId,
      new Date(at.getTime() - 86_400_000),
    ]);
    await sql(this.dataSource, 'INSERT INTO email_change_requests (user_id, requested_at) VALUES ($1, $2)', [userId, at]);
  }

  async since(userId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const result = await sql(
      this.dataSource,
      'SELECT count(*) AS count, min(requested_at) AS oldest FROM email_change_requests WHERE user_id = $1 AND requested_at >= $2',
      [userId, since],
    );
    // An aggregate without GROUP BY always answers one row.
    return changeRequests(result.rows[0]);
  }
}
