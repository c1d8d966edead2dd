import {
  AuthorizationCode,
  AuthorizationCodeRepository,
  EmailVerification,
  EmailVerificationRepository,
  LoginAttempt,
  LoginThrottle,
  OAuthToken,
  OAuthTokenRepository,
  PatRoom,
  PersonalAccessToken,
  PersonalAccessTokenRepository,
  User,
  UserProps,
  UserRepository,
} from '@lnk/identity/domain';
import { clientAddressKey } from '@lnk/shared/client-address';
import { Page, PageRequest, pageOfNewestFirst, RateLimitedError, ValidationError } from '@lnk/shared/kernel';

// Rows are copies of props; every read builds a new User, so a change is stored only by update.
const copy = (p: UserProps): UserProps => ({
  ...p,
  emailChangedAt: p.emailChangedAt ? new Date(p.emailChangedAt) : null,
  createdAt: new Date(p.createdAt),
  updatedAt: new Date(p.updatedAt),
});
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

/**
 * A token fake's rows, in insertion order: a copy goes in and copies come out, so a token changed after
 * reading is stored only through the port, as with the TypeORM repositories. Predicates see the props.
 */
class CopyingRows<P extends object, T extends { props: P }> {
  rows: T[] = [];
  constructor(private readonly entity: new (props: P) => T) {}
  private readonly copy = (row: T): T => new this.entity({ ...row.props });

  insert(row: T): void {
    this.rows.push(this.copy(row));
  }
  /** A copy of the first row `pick` finds, or null. */
  first(pick: (p: P) => boolean): T | null {
    const found = this.rows.find((r) => pick(r.props));
    return found ? this.copy(found) : null;
  }
  all(pick: (p: P) => boolean): T[] {
    return this.rows.filter((r) => pick(r.props)).map(this.copy);
  }
  /** Sets `changes` on every row `pick` finds; how many it changed. */
  change(pick: (p: P) => boolean, changes: Partial<P>): number {
    let changed = 0;
    this.rows = this.rows.map((r) => (pick(r.props) ? (changed++, new this.entity({ ...r.props, ...changes })) : r));
    return changed;
  }
  /** Deletes every row `pick` finds; how many it deleted. */
  delete(pick: (p: P) => boolean): number {
    const before = this.rows.length;
    this.rows = this.rows.filter((r) => !pick(r.props));
    return before - this.rows.length;
  }
}

// `rows` is open for a test's assertions.

export class MemoryOAuthTokenRepository extends OAuthTokenRepository {
  private readonly table = new CopyingRows(OAuthToken);
  get rows(): OAuthToken[] {
    return this.table.rows;
  }
  async insert(t: OAuthToken): Promise<void> {
    this.table.insert(t);
  }
  async findByAccessHash(hash: string): Promise<OAuthToken | null> {
    return this.table.first((t) => t.accessHash === hash);
  }
  async findByRefreshHash(hash: string): Promise<OAuthToken | null> {
    return this.table.first((t) => t.refreshHash === hash);
  }
  private revokeWhere(pick: (t: OAuthToken['props']) => boolean, at: Date): void {
    this.table.change((t) => pick(t) && !t.revokedAt, { revokedAt: at });
  }
  async markRotated(id: string, at: Date): Promise<boolean> {
    return this.table.change((t) => t.id === id && !t.rotatedAt && !t.revokedAt, { rotatedAt: at }) > 0;
  }
  async revoke(id: string, at: Date): Promise<void> {
    this.revokeWhere((t) => t.id === id, at);
  }
  async revokeFamily(familyId: string, at: Date): Promise<void> {
    this.revokeWhere((t) => t.familyId === familyId, at);
  }
  /** Tokens refreshed from those the code issued share their family: all of them go. */
  async revokeIssuedByCode(codeId: string, at: Date): Promise<void> {
    const families = new Set(this.table.all((t) => t.authorizationCodeId === codeId).map((t) => t.props.familyId));
    this.revokeWhere((t) => families.has(t.familyId), at);
  }
  async revokeAllOfUser(userId: string, at: Date, exceptTokenId?: string): Promise<void> {
    this.revokeWhere((t) => t.userId === userId && t.id !== exceptTokenId, at);
  }
  async revokeAllOfClient(clientId: string, at: Date): Promise<void> {
    this.revokeWhere((t) => t.clientId === clientId, at);
  }
}

export class MemoryPersonalAccessTokenRepository extends PersonalAccessTokenRepository {
  private readonly table = new CopyingRows(PersonalAccessToken);
  get rows(): PersonalAccessToken[] {
    return this.table.rows;
  }
  /** One call at a time, as the adapter's lock makes it: nothing here awaits between the count and the insert. */
  async insertWithinLimit(t: PersonalAccessToken, room: PatRoom, now: Date): Promise<{ stored: boolean; active: number }> {
    const userId = t.props.userId;
    const expired = this.table
      .all((p) => p.userId === userId && p.expiresAt !== null && p.expiresAt <= now)
      .sort((a, b) => (b.props.expiresAt as Date).getTime() - (a.props.expiresAt as Date).getTime() || (a.props.id < b.props.id ? 1 : -1));
    const dropped = new Set(expired.slice(room.keptExpired).map((p) => p.props.id));
    this.table.delete((p) => dropped.has(p.id));
    const active = this.table.all((p) => p.userId === userId && (p.expiresAt === null || p.expiresAt > now)).length;
    if (active >= room.maxActive) return { stored: false, active };
    this.table.insert(t);
    return { stored: true, active };
  }
  async findByHash(hash: string): Promise<PersonalAccessToken | null> {
    return this.table.first((t) => t.tokenHash === hash);
  }
  async findOfUser(userId: string, id: string): Promise<PersonalAccessToken | null> {
    return this.table.first((t) => t.userId === userId && t.id === id);
  }
  async listOfUser(userId: string, page: PageRequest): Promise<Page<PersonalAccessToken>> {
    // Newest first, as the adapter orders them (ids are time-ordered).
    const mine = this.table.all((t) => t.userId === userId).sort((a, b) => (a.props.id < b.props.id ? 1 : -1));
    return pageOfNewestFirst(mine, page, (t) => t.props.id);
  }
  async deleteOfUser(userId: string, id: string): Promise<boolean> {
    return this.table.delete((t) => t.userId === userId && t.id === id) > 0;
  }
  async deleteAllOfUser(userId: string, exceptId?: string): Promise<number> {
    return this.table.delete((t) => t.userId === userId && t.id !== exceptId);
  }
  async touch(id: string, at: Date): Promise<void> {
    this.table.change((t) => t.id === id, { lastUsedAt: at });
  }
}

export class MemoryAuthorizationCodeRepository extends AuthorizationCodeRepository {
  private readonly table = new CopyingRows(AuthorizationCode);
  get rows(): AuthorizationCode[] {
    return this.table.rows;
  }
  async insert(c: AuthorizationCode): Promise<void> {
    this.table.insert(c);
  }
  async findByHash(hash: string): Promise<AuthorizationCode | null> {
    return this.table.first((c) => c.codeHash === hash);
  }
  async consume(id: string, at: Date): Promise<boolean> {
    return this.table.change((c) => c.id === id && !c.consumedAt, { consumedAt: at }) > 0;
  }
}

/** Verification links as the TypeORM adapter keeps them: usable while unused and unexpired, used once. */
export class MemoryEmailVerificationRepository extends EmailVerificationRepository {
  readonly rows: (EmailVerification & { usedAt: Date | null })[] = [];
  private usable(tokenHash: string, at: Date) {
    return this.rows.find((r) => r.tokenHash === tokenHash && !r.usedAt && r.expiresAt > at);
  }
  async insert(v: EmailVerification): Promise<void> {
    this.rows.push({ ...v, expiresAt: new Date(v.expiresAt), createdAt: new Date(v.createdAt), usedAt: null });
  }
  async find(tokenHash: string, at: Date): Promise<{ userId: string; email: string } | null> {
    const row = this.usable(tokenHash, at);
    return row ? { userId: row.userId, email: row.email } : null;
  }
  async consume(tokenHash: string, at: Date): Promise<{ userId: string; email: string } | null> {
    const row = this.usable(tokenHash, at);
    if (!row) return null;
    row.usedAt = new Date(at);
    return { userId: row.userId, email: row.email };
  }
  async withdrawAll(userId: string, at: Date): Promise<void> {
    for (const row of this.rows) if (row.userId === userId && !row.usedAt) row.usedAt = new Date(at);
  }
}

/**
 * LoginThrottle as the port says: an attempt counts from admission, a success or a withdrawal takes it back; past `cap` counted attempts on
 * a key, refused.
 */
export class CappedLoginThrottle extends LoginThrottle {
  readonly counts = new Map<string, number>();
  constructor(private readonly cap = 10) {
    super();
  }
  async admit(keys: string[]): Promise<LoginAttempt> {
    if (keys.some((k) => (this.counts.get(k) ?? 0) >= this.cap)) throw new RateLimitedError(60);
    for (const k of keys) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    const takeBack = () => keys.forEach((k) => this.counts.set(k, (this.counts.get(k) ?? 1) - 1));
    return { succeeded: takeBack, withdraw: takeBack };
  }
  addressKey(address: string): string {
    return clientAddressKey(address);
  }
}
