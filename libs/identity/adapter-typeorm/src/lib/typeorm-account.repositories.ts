import { DataSource } from 'typeorm';
import { BackupCodeRepository, EmailVerification, EmailVerificationRepository } from '@lnk/identity/domain';
import { sql } from '@lnk/shared/database';

export class TypeormEmailVerificationRepository extends EmailVerificationRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insert(v: EmailVerification): Promise<void> {
    await sql(
      this.dataSource,
      'INSERT INTO email_verifications (id, user_id, email, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [v.id, v.userId, v.email, v.tokenHash, v.expiresAt, v.createdAt],
    );
  }

  async consume(tokenHash: string, at: Date): Promise<{ userId: string; email: string } | null> {
    const { rows } = await sql<{ user_id: string; email: string }>(
      this.dataSource,
      `UPDATE email_verifications SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id, email`,
      [tokenHash, at],
    );
    return rows[0] ? { userId: rows[0].user_id, email: rows[0].email } : null;
  }
}

export class TypeormBackupCodeRepository extends BackupCodeRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async replace(userId: string, codeHashes: string[]): Promise<void> {
    await this.deleteAll(userId);
    for (const hash of codeHashes) {
      await sql(this.dataSource, 'INSERT INTO backup_codes (user_id, code_hash) VALUES ($1, $2)', [userId, hash]);
    }
  }

  async consume(userId: string, codeHash: string, at: Date): Promise<boolean> {
    return (await sql(this.dataSource, 'UPDATE backup_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [userId, codeHash, at])).affected === 1;
  }

  async deleteAll(userId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM backup_codes WHERE user_id = $1', [userId]);
  }
}
