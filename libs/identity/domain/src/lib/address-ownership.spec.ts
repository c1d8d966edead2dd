import { FixedClock, MemoryUserRepository } from '@lnk/shared/testing';
import { RateLimitedError, UnauthorizedError, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { OAuthClient, OAuthClientProps } from './model/oauth-client.entity';
import { OAuthError, TwoFactorRequiredError } from './model/oauth-error';
import { Principal } from './model/tokens';
import { isReleasedEmail, User, UserProps } from './model/user.entity';
import { EmailVerification, EmailVerificationRepository } from './ports/account.repositories';
import { EmailChangeLog } from './ports/email-change-log';
import { IdTokenVerifier, VerifiedIdentity } from './ports/id-token-verifier';
import { IdpIdentity, IdpIdentityRepository } from './ports/idp-identity.repository';
import { LoginThrottle } from './ports/login-throttle';
import { MailMessage, Mailer } from './ports/mailer';
import { OAuthClientRepository } from './ports/oauth-client.repository';
import { PasswordHasher } from '@lnk/shared/kernel';
import { PendingEmailChanges } from './ports/pending-email-changes';
import { EmailVerificationSender } from './services/email-verification-sender';
import { ChangeEmailUseCase, EMAIL_CHANGES_PER_HOUR } from './use-cases/change-email.use-case';
import { VerifyEmailUseCase } from './use-cases/verify-email.use-case';
import { ClientAuthenticator } from './services/client-authenticator';
import { AddressClaims, AddressNotices } from './services/email-address';
import { IdpSignInUseCase } from './use-cases/idp-sign-in.use-case';
import { Reauthentication } from './services/reauthentication';
import { RegisterUserUseCase } from './use-cases/register-user.use-case';
import { SecondFactor } from './services/second-factor';
import { TokenIssuer } from './services/token-issuer';

// In-memory fakes that copy on read and write, so a use case sees only what it saved.
class Identities extends IdpIdentityRepository {
  rows: IdpIdentity[] = [];
  async findUserId(issuer: string, subject: string) {
    return this.rows.find((r) => r.issuer === issuer && r.subject === subject)?.userId ?? null;
  }
  async link(identity: IdpIdentity) {
    if (this.rows.some((r) => r.issuer === identity.issuer && r.subject === identity.subject)) return false;
    this.rows.push({ ...identity });
    return true;
  }
}

class Verifications extends EmailVerificationRepository {
  rows: (EmailVerification & { usedAt: Date | null })[] = [];
  async insert(v: EmailVerification) {
    this.rows.push({ ...v, usedAt: null });
  }
  async consume(tokenHash: string, at: Date) {
    const row = this.rows.find((r) => r.tokenHash === tokenHash && !r.usedAt && r.expiresAt > at);
    if (!row) return null;
    row.usedAt = at;
    return { userId: row.userId, email: row.email };
  }
}

class Pending extends PendingEmailChanges {
  constructor(
    private readonly users: MemoryUserRepository,
    private readonly verifications: Verifications,
  ) {
    super();
  }
  async withdrawAll(email: string, exceptUserId: string | null, at: Date) {
    for (const [id, row] of this.users.rows) if (row.pendingEmail === email && id !== exceptUserId) this.users.rows.set(id, { ...row, pendingEmail: null, updatedAt: at });
    for (const row of this.verifications.rows) if (row.email === email && !row.usedAt && row.userId !== exceptUserId) row.usedAt = at;
  }
}

class ChangeLog extends EmailChangeLog {
  rows: { userId: string; at: Date }[] = [];
  async record(userId: string, at: Date) {
    this.rows.push({ userId, at });
  }
  async since(userId: string, since: Date) {
    const mine = this.rows.filter((r) => r.userId === userId && r.at >= since).map((r) => r.at.getTime());
    return { count: mine.length, oldest: mine.length ? new Date(Math.min(...mine)) : null };
  }
}

class Mailbox extends Mailer {
  sent: MailMessage[] = [];
  async send(message: MailMessage) {
    this.sent.push({ ...message });
  }
  to(address: string) {
    return this.sent.filter((m) => m.to === address);
  }
  /** The token in the last verification link sent to `address`. */
  linkTo(address: string): string | undefined {
    return this.to(address)
      .map((m) => /token=(\S+)/.exec(m.text)?.[1])
      .filter(Boolean)
      .pop();
  }
}

const passthrough: UnitOfWork = { run: (work) => work() };
let n = 0;
const ids = { next: () => (++n).toString(16).padStart(24, '0') };
const hasher = { hash: (s: string) => `h:${s}`, matches: (s: string, h: string) => h === `h:${s}` };
const secrets = { generate: () => `t${++n}` };
const passwords: PasswordHasher = { hash: async (p) => `bcrypt:${p}`, verify: async (p, h) => h === `bcrypt:${p}` };
// Reauthentication (a fresh sign-in) is another item's rule; here every request is fresh.
const fresh = { confirm: async () => undefined } as unknown as Reauthentication;
const principalOf = (userId: string): Principal => ({ userId, scopes: ['user:write'], via: 'pat', tokenId: 'p1', clientId: null }) as unknown as Principal;
const proof = { ip: '198.51.100.7' };

describe('who owns an e-mail address', () => {
  let clock: FixedClock;
  let users: MemoryUserRepository;
  let identities: Identities;
  let verifications: Verifications;
  let mail: Mailbox;
  let log: ChangeLog;
  let verification: EmailVerificationSender;
  let changeEmail: ChangeEmailUseCase;
  let verifyEmail: VerifyEmailUseCase;
  let register: RegisterUserUseCase;
  let addressClaims: AddressClaims;

  const account = (props: Partial<UserProps> & { email: string }): User => {
    const now = clock.now();
    const user = new User({ id: ids.next(), name: '', passwordHash: 'bcrypt:pw', isVerified: true, isActive: true, twoFactorSecret: null, pendingEmail: null, createdAt: now, updatedAt: now, ...props });
    users.rows.set(user.id, user.toProps());
    return user;
  };

  beforeEach(() => {
    clock = new FixedClock(new Date('2026-03-01T00:00:00.000Z'));
    users = new MemoryUserRepository();
    identities = new Identities();
    verifications = new Verifications();
    mail = new Mailbox();
    log = new ChangeLog();
    verification = new EmailVerificationSender(verifications, mail, secrets, hasher, ids, clock, (token) => `https://lnk.test/auth/verify-email?token=${token}`);
    addressClaims = new AddressClaims(users, new Pending(users, verifications), clock);
    changeEmail = new ChangeEmailUseCase(users, verification, new AddressNotices(mail), log, clock, fresh);
    verifyEmail = new VerifyEmailUseCase(verifications, users, hasher, addressClaims, passthrough, clock);
    register = new RegisterUserUseCase(users, passwords, ids, clock, verification, addressClaims);
  });

  describe('identity-provider sign-in', () => {
    const issuer = 'https://accounts.idp.test';
    let claims: VerifiedIdentity;
    let attempts: string[];
    let idp: IdpSignInUseCase;
    let clientProps: OAuthClientProps;

    beforeEach(() => {
      claims = { issuer, subject: 'sub-1', email: 'victim@example.com', emailVerified: true, name: 'Victim' };
      attempts = [];
      const verifier: IdTokenVerifier = { verify: async (token) => (token === 'good' ? { ...claims } : null) };
      clientProps = { id: 'c1', clientId: 'cl_1', secretHash: null, ownerId: null, requestedBy: null, name: 'Web', description: '', scopes: ['user:read', 'user:write'], redirectUris: [], isFirstParty: true, isActive: true, createdAt: clock.now(), updatedAt: clock.now() };
      const clients = { findByClientId: async (id: string) => (id === 'cl_1' ? new OAuthClient({ ...clientProps }) : null) } as unknown as OAuthClientRepository;
      const factor = { verify: async (_user: User, code: string | undefined) => code === '123456' } as unknown as SecondFactor;
      const throttle: LoginThrottle = {
        admit: async (keys) => {
          attempts.push(keys[0]);
          return { succeeded: () => void attempts.push('ok'), withdraw: () => undefined };
        },
      };
      const issuerOfTokens = { issue: async (grant: { userId: string }) => ({ accessToken: `at-${grant.userId}` }) } as unknown as TokenIssuer;
      idp = new IdpSignInUseCase(verifier, new ClientAuthenticator(clients, hasher), users, identities, addressClaims, factor, throttle, passthrough, issuerOfTokens, ids, clock);
    });

    const signIn = (extra: { otp?: string } = {}) => idp.execute({ idToken: 'good', clientId: 'cl_1', ip: '203.0.113.9', ...extra });

    it('never enters an account that holds the address unverified: the squatter loses it and the IdP user gets a new account (the audit takeover)', async () => {
      const squatter = account({ email: 'victim@example.com', isVerified: false });
      const { user } = await signIn();
      expect(user.id).not.toBe(squatter.id);
      expect(users.get(user.id)).toMatchObject({ email: 'victim@example.com', isVerified: true, passwordHash: null });
      expect(isReleasedEmail(users.get(squatter.id).email)).toBe(true);
      expect(users.get(squatter.id).isVerified).toBe(false);
      expect(await identities.findUserId(issuer, 'sub-1')).toBe(user.id);
    });

    it('a pending change to the address reserves nothing: the IdP user gets the address and the pending change can no longer be confirmed', async () => {
      const attacker = account({ email: 'attacker@example.com' });
      await changeEmail.execute(principalOf(attacker.id), 'victim@example.com', proof);
      const link = mail.linkTo('victim@example.com');
      const { user } = await signIn();
      expect(user.id).not.toBe(attacker.id);
      expect(users.get(attacker.id)).toMatchObject({ email: 'attacker@example.com', pendingEmail: null });
      // The link went to the victim's mailbox; even followed, it cannot hand the address to the attacker.
      await expect(verifyEmail.execute(link)).rejects.toBeInstanceOf(ValidationError);
      expect(users.get(user.id).email).toBe('victim@example.com');
    });

    it('enters and links an account that has verified the address, then follows the provider account (issuer, subject) when its e-mail changes', async () => {
      const owner = account({ email: 'victim@example.com' });
      expect((await signIn()).user.id).toBe(owner.id);
      expect(identities.rows).toEqual([{ issuer, subject: 'sub-1', userId: owner.id, createdAt: clock.now() }]);
      claims = { ...claims, email: 'renamed@example.com' };
      expect((await signIn()).user.id).toBe(owner.id);
      expect(users.rows.size).toBe(1);
    });

    it('links a second subject of the provider to the account that verified its address, as it does the first', async () => {
      const { user } = await signIn();
      claims = { ...claims, subject: 'sub-2' };
      // Same verified address at the same provider, another subject: the verified account is entered and linked too.
      expect((await signIn()).user.id).toBe(user.id);
      expect(identities.rows.map((r) => r.subject).sort()).toEqual(['sub-1', 'sub-2']);
    });

    it('asks accounts with two-factor sign-in for the code, as the password grant does (an ID token alone is one factor)', async () => {
      account({ email: 'victim@example.com', twoFactorSecret: 'sealed' });
      await expect(signIn()).rejects.toBeInstanceOf(TwoFactorRequiredError);
      await expect(signIn({ otp: '000000' })).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(signIn({ otp: '000000' })).rejects.toBeInstanceOf(OAuthError);
      expect(identities.rows).toEqual([]); // nothing linked before the second factor passed
      await expect(signIn({ otp: '123456' })).resolves.toBeDefined();
      expect(attempts).toEqual(['account:victim@example.com', 'account:victim@example.com', 'account:victim@example.com', 'ok']);
      expect(identities.rows).toHaveLength(1);
    });

    it('refuses a disabled account and a client of another user', async () => {
      const owner = account({ email: 'victim@example.com', isActive: false });
      await expect(signIn()).rejects.toBeInstanceOf(UnauthorizedError);
      users.rows.set(owner.id, { ...users.get(owner.id), isActive: true });
      clientProps = { ...clientProps, isFirstParty: false, ownerId: 'someone-else' };
      await expect(signIn()).rejects.toBeInstanceOf(UnauthorizedError);
    });
  });

  describe('changing the address', () => {
    it('shows the new address unverified at once, but sign-in keeps the confirmed one until the link is followed (a user:write token cannot move the account)', async () => {
      const ada = account({ email: 'ada@example.com' });
      const changed = await changeEmail.execute(principalOf(ada.id), 'ada@new.example.com', proof);
      expect(changed.shownAddress).toEqual({ email: 'ada@new.example.com', isVerified: false });
      expect(users.get(ada.id)).toMatchObject({ email: 'ada@example.com', isVerified: true, pendingEmail: 'ada@new.example.com' });
      expect(await users.findByEmail('ada@new.example.com')).toBeNull();

      const notice = mail.to('ada@example.com');
      expect(notice).toHaveLength(1);
      expect(notice[0].text).toContain('a***@n***.com');
      expect(notice[0].text).not.toContain('ada@new.example.com');

      const confirmed = await verifyEmail.execute(mail.linkTo('ada@new.example.com'));
      expect(confirmed.shownAddress).toEqual({ email: 'ada@new.example.com', isVerified: true });
      expect(users.get(ada.id)).toMatchObject({ email: 'ada@new.example.com', isVerified: true, pendingEmail: null });
    });

    it('answers alike whether or not another account holds the address (no registration oracle), and tells only the holder', async () => {
      const ada = account({ email: 'ada@example.com' });
      const bob = account({ email: 'bob@example.com' });
      const carol = account({ email: 'carol@example.com' });
      const free = await changeEmail.execute(principalOf(ada.id), 'nobody@example.com', proof);
      const taken = await changeEmail.execute(principalOf(carol.id), 'bob@example.com', proof);
      expect(taken.shownAddress).toEqual({ email: 'bob@example.com', isVerified: false });
      expect(free.shownAddress).toEqual({ email: 'nobody@example.com', isVerified: false });
      expect(users.get(bob.id)).toMatchObject({ email: 'bob@example.com', isVerified: true, pendingEmail: null });
      expect(mail.linkTo('bob@example.com')).toBeUndefined();
      expect(mail.to('bob@example.com').map((m) => m.subject)).toEqual(['Someone tried to use your e-mail address']);
      expect(mail.to('carol@example.com')).toHaveLength(1); // the change notice, as for any address
    });

    it('limits requests per account (each one mails two addresses): RATE_LIMITED with the wait, then allowed again after an hour', async () => {
      const ada = account({ email: 'ada@example.com' });
      for (let i = 0; i < EMAIL_CHANGES_PER_HOUR; i++) {
        await changeEmail.execute(principalOf(ada.id), `ada${i}@example.com`, proof);
        clock.advance(60_000);
      }
      const sentBefore = mail.sent.length;
      const refused = changeEmail.execute(principalOf(ada.id), 'ada-more@example.com', proof);
      await expect(refused).rejects.toBeInstanceOf(RateLimitedError);
      await expect(changeEmail.execute(principalOf(ada.id), 'ada-more@example.com', proof)).rejects.toMatchObject({ retryAfterSeconds: 3600 - 5 * 60 });
      expect(mail.sent.length).toBe(sentBefore);
      clock.advance(3_600_000);
      await expect(changeEmail.execute(principalOf(ada.id), 'ada-more@example.com', proof)).resolves.toBeDefined();
    });

    it('following a link takes the address from an account that holds it unverified, but never from one that verified it', async () => {
      const ada = account({ email: 'ada@example.com' });
      const squatter = account({ email: 'ada@new.example.com', isVerified: false });
      await changeEmail.execute(principalOf(ada.id), 'ada@new.example.com', proof);
      await verifyEmail.execute(mail.linkTo('ada@new.example.com'));
      expect(users.get(ada.id).email).toBe('ada@new.example.com');
      expect(isReleasedEmail(users.get(squatter.id).email)).toBe(true);

      const bob = account({ email: 'bob@example.com' });
      await changeEmail.execute(principalOf(bob.id), 'carol@example.com', proof);
      const link = mail.linkTo('carol@example.com');
      account({ email: 'carol@example.com' }); // Carol verified the address in the meantime
      await expect(verifyEmail.execute(link)).rejects.toBeInstanceOf(ValidationError);
      expect(users.get(bob.id).email).toBe('bob@example.com');
    });
  });

  describe('accounts the operator makes', () => {
    it('are verified at once when the operator vouches for the address, without mail, taking it from an unverified holder', async () => {
      const squatter = account({ email: 'op@example.com', isVerified: false });
      const user = await register.execute({ email: 'op@example.com', password: 'long password', verified: true });
      expect(users.get(user.id)).toMatchObject({ email: 'op@example.com', isVerified: true });
      expect(mail.sent).toEqual([]);
      expect(isReleasedEmail(users.get(squatter.id).email)).toBe(true);
      await expect(register.execute({ email: 'op@example.com', password: 'long password', verified: true })).rejects.toBeInstanceOf(ValidationError);
    });

    it('start unverified with a link mailed when no one vouches for the address', async () => {
      const user = await register.execute({ email: 'self@example.com', password: 'long password' });
      expect(users.get(user.id).isVerified).toBe(false);
      expect(mail.linkTo('self@example.com')).toBeDefined();
    });
  });
});
