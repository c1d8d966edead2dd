import { DataSource } from 'typeorm';
import { BackupCodeRepository, EmailVerification, EmailVerificationRepository, TwoFactorStateRepository } from '@lnk/identity/domain';
import { firstOf, Row, sql, text, textOrNull } from '@lnk/shared/database';

const verifiedAddress = (r: Row) => ({ userId: text(r, 'user_id'), email: text(r, 'email') });

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

  async find(tokenHash: string, at: Date): Promise<{ userId: string; email: string } | null> {
    const result = await sql(
      this.dataSource,
      `SELECT user_id, email FROM email_verifications WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
      [tokenHash, at],
    );
    return firstOf(result, verifiedAddress);
  }

  async consume(tokenHash: string, at: Date): Promise<{ userId: string; email: string } | null> {
    const result = await sql(
      this.dataSource,
      `UPDATE email_verifications SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id, email`,
      [tokenHash, at],
    );
    return firstOf(result, verifiedAddress);
  }

  async withdrawAll(userId: string, at: Date): Promise<void> {
    await sql(this.dataSource, 'UPDATE email_verifications SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [userId, at]);
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
    return (
      (
        await sql(this.dataSource, 'UPDATE backup_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [
          userId,
          codeHash,
          at,
        ])
      ).affected === 1
    );
  }

  async deleteAll(userId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM backup_codes WHERE user_id = $1', [userId]);
  }
}

/** The pending enrolment and the last TOTP step used, in two columns of the account's row. */
export class TypeormTwoFactorStateRepository extends TwoFactorStateRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async savePending(userId: string, sealedSecret: string, at: Date): Promise<void> {
    await sql(this.dataSource, 'UPDATE users SET two_factor_pending_secret = $2, two_factor_pending_at = $3 WHERE id = $1', [
      userId,
      sealedSecret,
      at,
    ]);
  }

  async findPending(userId: string): Promise<string | null> {
    const { rows } = await sql(this.dataSource, 'SELECT two_factor_pending_secret AS secret FROM users WHERE id = $1', [userId]);
    return rows.length ? textOrNull(rows[0], 'secret') : null;
  }

  async deletePending(userId: string, sealedSecret?: string): Promise<boolean> {
    const { affected } = await sql(
      this.dataSource,
      `UPDATE users SET two_factor_pending_secret = NULL, two_factor_pending_at = NULL
        WHERE id = $1 AND two_factor_pending_secret IS NOT NULL AND ($2::text IS NULL OR two_factor_pending_secret = $2)`,
      [userId, sealedSecret ?? null],
    );
    return affected === 1;
  }

  async useStep(userId: string, step: number): Promise<boolean> {
    // One conditional write: of two requests racing with one code, only one moves the step forward.
    const { affected } = await sql(
      this.dataSource,
      'UPDATE users SET two_factor_last_step = $2 WHERE id = $1 AND (two_factor_last_step IS NULL OR two_factor_last_step < $2)',
      [userId, step],
    );
    return affected === 1;
  }
}
