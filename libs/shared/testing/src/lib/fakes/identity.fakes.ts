import { User, UserProps, UserRepository } from '@lnk/identity/domain';
import { ValidationError } from '@lnk/shared/kernel';

// Rows are copies of props; every read builds a new User, so a change is stored only by update.
const copy = (p: UserProps): UserProps => ({ ...p, pendingEmail: p.pendingEmail ?? null, createdAt: new Date(p.createdAt), updatedAt: new Date(p.updatedAt) });
const emailTaken = () => ValidationError.field('email', 'email is already registered');

export class MemoryUserRepository extends UserRepository {
  readonly rows = new Map<string, UserProps>();

  /** A copy of the stored props (for assertions); throws for an unknown id. */
  get(id: string): UserProps {
    const row = this.rows.get(id);
    if (!row) throw new Error(`no user ${id}`);
    return copy(row);
  }

  /** E-mail addresses are unique as written (the adapter's index is on email, not lower(email)). */
  private taken(p: UserProps): boolean {
    return [...this.rows.values()].some((r) => r.email === p.email && r.id !== p.id);
  }

  async findById(id: string): Promise<User | null> {
    const row = this.rows.get(id);
    return row ? new User(copy(row)) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = [...this.rows.values()].find((r) => r.email === email);
    return row ? new User(copy(row)) : null;
  }

  async insert(user: User): Promise<void> {
    const p = user.toProps();
    if (this.taken(p)) throw emailTaken();
    this.rows.set(p.id, copy(p));
  }

  async update(user: User): Promise<void> {
    const p = user.toProps();
    if (!this.rows.has(p.id)) return;
    if (this.taken(p)) throw emailTaken();
    this.rows.set(p.id, copy(p));
  }

  async delete(id: string): Promise<boolean> {
    return this.rows.delete(id);
  }
}
