import { DataSource } from 'typeorm';
import { AccountChanges, User, UserRepository } from '@lnk/identity/domain';
import { firstOf, guardUnique, sql, whenTransactionEnds } from '@lnk/shared/database';
import { toUser, USER_COLUMNS } from './identity.decoders';

const EMAIL_TAKEN = { constraint: 'users_email_key', field: 'email', message: 'email is already registered' };

/**
 * `changes` hears of every row this repository changes or deletes, once the change is committed (the
 * transaction's end when there is one). The columns of two-factor state (typeorm-account.repositories.ts)
 * are not part of the User it reads, so their writes change nothing it answers.
 */
export class TypeormUserRepository extends UserRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly changes: AccountChanges | null = null,
  ) {
    super();
  }

  async findById(id: string): Promise<User | null> {
    return firstOf(await sql(this.dataSource, `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]), toUser);
  }

  async findByEmail(email: string): Promise<User | null> {
    return firstOf(await sql(this.dataSource, `SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email]), toUser);
  }

  async insert(user: User): Promise<void> {
    const p = user.toProps();
    await guardUnique(EMAIL_TAKEN, () =>
      sql(
        this.dataSource,
        `INSERT INTO users (id, email, name, password_hash, is_verified, is_active, two_factor_secret, email_changed_at, created_at,
          updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          p.id,
          p.email,
          p.name,
          p.passwordHash,
          p.isVerified,
          p.isActive,
          p.twoFactorSecret,
          p.emailChangedAt ?? null,
          p.createdAt,
          p.updatedAt,
        ],
      ),
    );
  }

  async update(user: User): Promise<void> {
    const p = user.toProps();
    await guardUnique(EMAIL_TAKEN, () =>
      sql(
        this.dataSource,
        `UPDATE users SET email = $2, name = $3, password_hash = $4, is_verified = $5, is_active = $6, two_factor_secret = $7,
          email_changed_at = $8,
                created_at = $9, updated_at = $10
          WHERE id = $1`,
        [
          p.id,
          p.email,
          p.name,
          p.passwordHash,
          p.isVerified,
          p.isActive,
          p.twoFactorSecret,
          p.emailChangedAt ?? null,
          p.createdAt,
          p.updatedAt,
        ],
      ),
    );
    this.changed(p.id);
  }

  async delete(id: string): Promise<boolean> {
    const deleted = (await sql(this.dataSource, 'DELETE FROM users WHERE id = $1', [id])).affected > 0;
    this.changed(id);
    return deleted;
  }

  private changed(id: string): void {
    const changes = this.changes;
    if (changes) whenTransactionEnds(() => changes.accountChanged(id));
  }
}
