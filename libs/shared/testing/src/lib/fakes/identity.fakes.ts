import { AuthorizationCode, AuthorizationCodeRepository, LoginAttempt, LoginThrottle, OAuthToken, OAuthTokenRepository, PersonalAccessToken, PersonalAccessTokenRepository, User, UserProps, UserRepository } from '@lnk/identity/domain';
import { Page, PageRequest, pageOf, RateLimitedError, ValidationError } from '@lnk/shared/kernel';

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

// The token fakes keep rows in insertion order and hand out copies, so a token changed after reading is
// stored only through the port, as with the TypeORM repositories. `rows` is open for a test's assertions.

/** A copy of the first row `pick` finds, or null. */
function copyOfFirst<T>(rows: T[], pick: (row: T) => boolean, copy: (row: T) => T): T | null {
  const found = rows.find(pick);
  return found ? copy(found) : null;
}

export class MemoryOAuthTokenRepository extends OAuthTokenRepository {
  rows: OAuthToken[] = [];
  private readonly copy = (t: OAuthToken) => new OAuthToken({ ...t.props });
  async insert(t: OAuthToken): Promise<void> {
    this.rows.push(this.copy(t));
  }
  async findByAccessHash(hash: string): Promise<OAuthToken | null> {
    return copyOfFirst(this.rows, (x) => x.props.accessHash === hash, this.copy);
  }
  async findByRefreshHash(hash: string): Promise<OAuthToken | null> {
    return copyOfFirst(this.rows, (x) => x.props.refreshHash === hash, this.copy);
  }
  private set(pred: (t: OAuthToken) => boolean, field: 'revokedAt' | 'rotatedAt', at: Date): void {
    this.rows = this.rows.map((t) => (pred(t) && !t.props[field] ? new OAuthToken({ ...t.props, [field]: at }) : t));
  }
  async markRotated(id: string, at: Date): Promise<boolean> {
    const t = this.rows.find((x) => x.props.id === id);
    if (!t || t.props.rotatedAt || t.props.revokedAt) return false;
    this.set((x) => x.props.id === id, 'rotatedAt', at);
    return true;
  }
  async revoke(id: string, at: Date): Promise<void> {
    this.set((t) => t.props.id === id, 'revokedAt', at);
  }
  async revokeFamily(familyId: string, at: Date): Promise<void> {
    this.set((t) => t.props.familyId === familyId, 'revokedAt', at);
  }
  /** Tokens refreshed from those the code issued share their family: all of them go. */
  async revokeIssuedByCode(codeId: string, at: Date): Promise<void> {
    const families = new Set(this.rows.filter((t) => t.props.authorizationCodeId === codeId).map((t) => t.props.familyId));
    this.set((t) => families.has(t.props.familyId), 'revokedAt', at);
  }
  async revokeAllOfUser(userId: string, at: Date, exceptTokenId?: string): Promise<void> {
    this.set((t) => t.props.userId === userId && t.props.id !== exceptTokenId, 'revokedAt', at);
  }
  async revokeAllOfClient(clientId: string, at: Date): Promise<void> {
    this.set((t) => t.props.clientId === clientId, 'revokedAt', at);
  }
}

export class MemoryPersonalAccessTokenRepository extends PersonalAccessTokenRepository {
  rows: PersonalAccessToken[] = [];
  private readonly copy = (t: PersonalAccessToken) => new PersonalAccessToken({ ...t.props });
  async insert(t: PersonalAccessToken): Promise<void> {
    this.rows.push(this.copy(t));
  }
  async findByHash(hash: string): Promise<PersonalAccessToken | null> {
    return copyOfFirst(this.rows, (x) => x.props.tokenHash === hash, this.copy);
  }
  async findOfUser(userId: string, id: string): Promise<PersonalAccessToken | null> {
    return copyOfFirst(this.rows, (x) => x.props.userId === userId && x.props.id === id, this.copy);
  }
  async listOfUser(userId: string, page: PageRequest): Promise<Page<PersonalAccessToken>> {
    const mine = this.rows.filter((x) => x.props.userId === userId).map(this.copy);
    return pageOf(mine, mine.length, page);
  }
  async deleteOfUser(userId: string, id: string): Promise<boolean> {
    const before = this.rows.length;
    this.rows = this.rows.filter((x) => !(x.props.userId === userId && x.props.id === id));
    return this.rows.length < before;
  }
  async deleteAllOfUser(userId: string): Promise<void> {
    this.rows = this.rows.filter((x) => x.props.userId !== userId);
  }
  async touch(id: string, at: Date): Promise<void> {
    this.rows = this.rows.map((x) => (x.props.id === id ? new PersonalAccessToken({ ...x.props, lastUsedAt: at }) : x));
  }
}

export class MemoryAuthorizationCodeRepository extends AuthorizationCodeRepository {
  rows: AuthorizationCode[] = [];
  private readonly copy = (c: AuthorizationCode) => new AuthorizationCode({ ...c.props });
  async insert(c: AuthorizationCode): Promise<void> {
    this.rows.push(this.copy(c));
  }
  async findByHash(hash: string): Promise<AuthorizationCode | null> {
    return copyOfFirst(this.rows, (x) => x.props.codeHash === hash, this.copy);
  }
  async consume(id: string, at: Date): Promise<boolean> {
    const c = this.rows.find((x) => x.props.id === id);
    if (!c || c.props.consumedAt) return false;
    this.rows = this.rows.map((x) => (x === c ? new AuthorizationCode({ ...x.props, consumedAt: at }) : x));
    return true;
  }
}

/** LoginThrottle as the port says: an attempt counts from admission, a success or a withdrawal takes it back; past `cap` counted attempts on a key, refused. */
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
}
