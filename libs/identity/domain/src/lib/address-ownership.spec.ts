import { clientAddressKey, FixedClock } from '@lnk/shared/testing';
import { MemoryEmailVerificationRepository, MemoryUserRepository } from '@lnk/identity/testing';
import { RateLimitedError, UnauthorizedError, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { OAuthClient, OAuthClientProps } from './model/oauth-client.entity';
import { OAuthError, TwoFactorRequiredError } from './model/oauth-error';
import { Principal } from './model/tokens';
import { isReleasedEmail, User, UserProps } from './model/user.entity';
import { EmailChangeLog } from './ports/email-change-log';
import { IdTokenVerifier, VerifiedIdentity } from './ports/id-token-verifier';
import { IdpIdentity, IdpIdentityRepository } from './ports/idp-identity.repository';
import { LoginThrottle } from './ports/login-throttle';
import { MailMessage, Mailer } from './ports/mailer';
import { OAuthClientRepository } from './ports/oauth-client.repository';
import { PasswordHasher } from '@lnk/shared/kernel';
import { EmailVerificationSender } from './services/email-verification-sender';
import { ChangeEmailUseCase, EMAIL_CHANGES_PER_HOUR } from './use-cases/change-email.use-case';
import { VerifyEmailUseCase } from './use-cases/verify-email.use-case';
import { ViewEmailVerificationUseCase } from './use-cases/view-email-verification.use-case';
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
const principalOf = (userId: string): Principal =>
  ({ userId, scopes: ['user:write'], via: 'pat', tokenId: 'p1', clientId: null }) as unknown as Principal;
const proof = { ip: '198.51.100.7' };

describe('who owns an e-mail address', () => {
  let clock: FixedClock;
  let users: MemoryUserRepository;
  let identities: Identities;
  let verifications: MemoryEmailVerificationRepository;
  let mail: Mailbox;
  let log: ChangeLog;
  let verification: EmailVerificationSender;
  let changeEmail: ChangeEmailUseCase;
  let verifyEmail: VerifyEmailUseCase;
  let viewEmailVerification: ViewEmailVerificationUseCase;
  let register: RegisterUserUseCase;
  let addressClaims: AddressClaims;

  const account = (props: Partial<UserProps> & { email: string }): User => {
    const now = clock.now();
    const user = new User({
      id: ids.next(),
      name: '',
      passwordHash: 'bcrypt:pw',
      isVerified: true,
      isActive: true,
      twoFactorSecret: null,
      createdAt: now,
      updatedAt: now,
      ...props,
    });
    users.rows.set(user.id, user.toProps());
    return user;
  };

  beforeEach(() => {
    clock = new FixedClock(new Date('2026-03-01T00:00:00.000Z'));
    users = new MemoryUserRepository();
    identities = new Identities();
    verifications = new MemoryEmailVerificationRepository();
    mail = new Mailbox();
    log = new ChangeLog();
    verification = new EmailVerificationSender({
      verifications,
      mailer: mail,
      secrets,
      hasher,
      ids,
      clock,
      verifyUrl: (token) => `https://lnk.test/auth/verify-email?token=${token}`,
    });
    addressClaims = new AddressClaims(users, clock);
    changeEmail = new ChangeEmailUseCase({
      users,
      verifications,
      verification,
      notices: new AddressNotices(mail),
      log,
      clock,
      reauthentication: fresh,
    });
    verifyEmail = new VerifyEmailUseCase(verifications, users, hasher, clock);
    viewEmailVerification = new ViewEmailVerificationUseCase(verifications, users, hasher, clock);
    register = new RegisterUserUseCase({ users, passwords, ids, clock, verification, claims: addressClaims });
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
      clientProps = {
        id: 'c1',
        clientId: 'cl_1',
        secretHash: null,
        ownerId: null,
        requestedBy: null,
        name: 'Web',
        description: '',
        scopes: ['user:read', 'user:write'],
        redirectUris: [],
        isFirstParty: true,
        isActive: true,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      };
      const clients = {
        findByClientId: async (id: string) => (id === 'cl_1' ? new OAuthClient({ ...clientProps }) : null),
      } as unknown as OAuthClientRepository;
      const factor = { verify: async (_user: User, code: string | undefined) => code === '123456' } as unknown as SecondFactor;
      const throttle: LoginThrottle = {
        admit: async (keys) => {
          attempts.push(keys[0]);
          return { succeeded: () => void attempts.push('ok'), withdraw: () => undefined };
        },
        addressKey: clientAddressKey,
      };
      const issuerOfTokens = {
        issue: async (grant: { userId: string }) => ({ accessToken: `at-${grant.userId}` }),
      } as unknown as TokenIssuer;
      idp = new IdpSignInUseCase({
        verifier,
        clients: new ClientAuthenticator(clients, hasher),
        users,
        identities,
        claims: addressClaims,
        secondFactor: factor,
        throttle,
        unitOfWork: passthrough,
        issuer: issuerOfTokens,
        ids,
        clock,
      });
    });

    const signIn = (extra: { otp?: string } = {}) => idp.execute({ idToken: 'good', clientId: 'cl_1', ip: '203.0.113.9', ...extra });

    it(
      'never enters an account that holds the address unverified: the squatter ' +
        'loses it and the IdP user gets a new account (the audit takeover)',
      async () => {
        const squatter = account({ email: 'victim@example.com', isVerified: false });
        const { user } = await signIn();
        expect(user.id).not.toBe(squatter.id);
        expect(users.get(user.id)).toMatchObject({ email: 'victim@example.com', isVerified: true, passwordHash: null });
        expect(isReleasedEmail(users.get(squatter.id).email)).toBe(true);
        expect(users.get(squatter.id).isVerified).toBe(false);
        expect(await identities.findUserId(issuer, 'sub-1')).toBe(user.id);
      },
    );

    it(
      'an address taken by a change reserves nothing while unverified: the IdP ' +
        'user gets it, and the link mailed to it confirms nothing',
      async () => {
        const attacker = account({ email: 'attacker@example.com' });
        await changeEmail.execute(principalOf(attacker.id), 'victim@example.com', proof);
        expect(users.get(attacker.id)).toMatchObject({ email: 'victim@example.com', isVerified: false });
        const link = mail.linkTo('victim@example.com');
        const { user } = await signIn();
        expect(user.id).not.toBe(attacker.id);
        expect(isReleasedEmail(users.get(attacker.id).email)).toBe(true);
        // The link went to the victim's mailbox; even followed, it cannot hand the address to the attacker.
        await expect(verifyEmail.execute(link)).rejects.toBeInstanceOf(ValidationError);
        expect(users.get(user.id)).toMatchObject({ email: 'victim@example.com', isVerified: true });
      },
    );

    // Issue 27: a person talked into confirming (or a scanner, before confirmation took a button) made the
    // attacker's address verified, and the victim's first provider sign-in then entered the attacker's account.
    it(
      'never joins a sign-in to an account whose address came from a ' + 'change, even once confirmed: refused, nothing linked or made',
      async () => {
        const attacker = account({ email: 'attacker@example.com' });
        await changeEmail.execute(principalOf(attacker.id), 'victim@example.com', proof);
        await verifyEmail.execute(mail.linkTo('victim@example.com'));
        expect(users.get(attacker.id)).toMatchObject({ email: 'victim@example.com', isVerified: true, emailChangedAt: clock.now() });
        await expect(signIn()).rejects.toBeInstanceOf(UnauthorizedError);
        expect(identities.rows).toEqual([]);
        expect(users.rows.size).toBe(1);
        // Its own provider identity, linked by (issuer, subject), still enters it.
        identities.rows.push({ issuer, subject: 'attacker-sub', userId: attacker.id, createdAt: clock.now() });
        claims = { ...claims, subject: 'attacker-sub' };
        expect((await signIn()).user.id).toBe(attacker.id);
      },
    );

    it(
      'enters and links an account that has verified the address, then follows ' +
        'the provider account (issuer, subject) when its e-mail changes',
      async () => {
        const owner = account({ email: 'victim@example.com' });
        expect((await signIn()).user.id).toBe(owner.id);
        expect(identities.rows).toEqual([{ issuer, subject: 'sub-1', userId: owner.id, createdAt: clock.now() }]);
        claims = { ...claims, email: 'renamed@example.com' };
        expect((await signIn()).user.id).toBe(owner.id);
        expect(users.rows.size).toBe(1);
      },
    );

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
    it(
      'stores the new address at once, unverified, as the sign-in name; tells ' +
        'the old address; the link mailed to the new one confirms it',
      async () => {
        const ada = account({ email: 'ada@example.com' });
        const changed = await changeEmail.execute(principalOf(ada.id), 'Ada@New.Example.com', proof);
        expect(changed).toMatchObject({ email: 'ada@new.example.com', isVerified: false, emailChangedAt: clock.now() });
        expect(users.get(ada.id)).toMatchObject({ email: 'ada@new.example.com', isVerified: false });
        expect((await users.findByEmail('ada@new.example.com'))?.id).toBe(ada.id);
        expect(await users.findByEmail('ada@example.com')).toBeNull();

        const notice = mail.to('ada@example.com');
        expect(notice.map((m) => m.subject)).toEqual(['The e-mail address of your account was changed']);
        expect(notice[0].text).toContain('a***@n***.com');
        expect(notice[0].text).not.toContain('ada@new.example.com');
        const asked = mail.to('ada@new.example.com');
        expect(asked).toHaveLength(1);
        expect(asked[0].text).toContain('An account asked to use this address');
        expect(asked[0].text).toContain('If it was not you, ignore this message');

        clock.advance(60_000);
        const confirmed = await verifyEmail.execute(mail.linkTo('ada@new.example.com'));
        expect(confirmed).toMatchObject({ email: 'ada@new.example.com', isVerified: true });
        expect(users.get(ada.id)).toMatchObject({ email: 'ada@new.example.com', isVerified: true, updatedAt: clock.now() });
      },
    );

    // Issue 27 (a): a mail scanner fetches the link; only the page's button, posting the token, confirms.
    it('opening a link changes nothing and leaves it usable; a bad or stale one opens nothing', async () => {
      const ada = account({ email: 'ada@example.com' });
      await changeEmail.execute(principalOf(ada.id), 'ada@new.example.com', proof);
      const link = mail.linkTo('ada@new.example.com');
      for (let i = 0; i < 3; i++) expect((await viewEmailVerification.execute(link)).id).toBe(ada.id);
      expect(users.get(ada.id).isVerified).toBe(false);
      await verifyEmail.execute(link);
      expect(users.get(ada.id).isVerified).toBe(true);
      await expect(viewEmailVerification.execute(link)).rejects.toBeInstanceOf(ValidationError);
      await expect(viewEmailVerification.execute(undefined)).rejects.toBeInstanceOf(ValidationError);
      await expect(viewEmailVerification.execute('x'.repeat(257))).rejects.toBeInstanceOf(ValidationError);
    });

    // Issue 27 (c): a request proves nothing, so it cannot take an address from another account, even an unverified one.
    it(
      'refuses an address another account uses, verified or not, with a ' + 'validation error on email, changing and mailing nothing',
      async () => {
        const ada = account({ email: 'ada@example.com' });
        account({ email: 'bob@example.com' });
        account({ email: 'carol@example.com', isVerified: false });
        for (const taken of ['bob@example.com', 'Carol@Example.com']) {
          const refused = await changeEmail.execute(principalOf(ada.id), taken, proof).catch((error: unknown) => error);
          expect(refused).toBeInstanceOf(ValidationError);
          expect((refused as ValidationError).errors).toEqual([{ name: 'email', error: 'email is already used by another account' }]);
        }
        expect(users.get(ada.id)).toMatchObject({ email: 'ada@example.com', isVerified: true, emailChangedAt: null });
        expect(mail.sent).toEqual([]);
        expect(log.rows).toHaveLength(2); // counted against the hourly limit all the same
      },
    );

    // Issue 27 (d): a link proves the mailbox of the address it was sent to, for as long as the account has that address.
    it(
      'a link confirms only the address the account has now: one for an ' + 'address it left confirms nothing, even after it comes back',
      async () => {
        const ada = account({ email: 'ada@example.com' });
        await changeEmail.execute(principalOf(ada.id), 'first@example.com', proof);
        const left = mail.linkTo('first@example.com');
        await changeEmail.execute(principalOf(ada.id), 'second@example.com', proof);
        await expect(verifyEmail.execute(left)).rejects.toBeInstanceOf(ValidationError);
        await changeEmail.execute(principalOf(ada.id), 'first@example.com', proof);
        await expect(verifyEmail.execute(left)).rejects.toBeInstanceOf(ValidationError);
        expect(users.get(ada.id)).toMatchObject({ email: 'first@example.com', isVerified: false });
        await verifyEmail.execute(mail.linkTo('first@example.com'));
        expect(users.get(ada.id)).toMatchObject({ email: 'first@example.com', isVerified: true });
      },
    );

    it('asked for its own address, changes nothing, and mails a fresh link only while the address is unverified', async () => {
      const ada = account({ email: 'ada@example.com' });
      const same = await changeEmail.execute(principalOf(ada.id), 'ada@example.com', proof);
      expect(same.toProps()).toEqual(ada.toProps());
      expect(mail.sent).toEqual([]);
      const bob = account({ email: 'bob@example.com', isVerified: false });
      await changeEmail.execute(principalOf(bob.id), 'bob@example.com', proof);
      await verifyEmail.execute(mail.linkTo('bob@example.com'));
      expect(users.get(bob.id)).toMatchObject({ isVerified: true, emailChangedAt: null });
    });

    it(
      'limits requests per account (each one mails two addresses): ' + 'RATE_LIMITED with the wait, then allowed again after an hour',
      async () => {
        const ada = account({ email: 'ada@example.com' });
        for (let i = 0; i < EMAIL_CHANGES_PER_HOUR; i++) {
          await changeEmail.execute(principalOf(ada.id), `ada${i}@example.com`, proof);
          clock.advance(60_000);
        }
        const sentBefore = mail.sent.length;
        const refused = changeEmail.execute(principalOf(ada.id), 'ada-more@example.com', proof);
        await expect(refused).rejects.toBeInstanceOf(RateLimitedError);
        await expect(changeEmail.execute(principalOf(ada.id), 'ada-more@example.com', proof)).rejects.toMatchObject({
          retryAfterSeconds: 3600 - 5 * 60,
        });
        expect(mail.sent.length).toBe(sentBefore);
        clock.advance(3_600_000);
        await expect(changeEmail.execute(principalOf(ada.id), 'ada-more@example.com', proof)).resolves.toBeDefined();
      },
    );
  });

  describe('accounts the operator makes', () => {
    it('are verified at once when the operator vouches for the address, without mail, taking it from an unverified holder', async () => {
      const squatter = account({ email: 'op@example.com', isVerified: false });
      const user = await register.execute({ email: 'op@example.com', password: 'long password', verified: true });
      expect(users.get(user.id)).toMatchObject({ email: 'op@example.com', isVerified: true });
      expect(mail.sent).toEqual([]);
      expect(isReleasedEmail(users.get(squatter.id).email)).toBe(true);
      await expect(register.execute({ email: 'op@example.com', password: 'long password', verified: true })).rejects.toBeInstanceOf(
        ValidationError,
      );
    });

    it('start unverified with a link mailed when no one vouches for the address', async () => {
      const user = await register.execute({ email: 'self@example.com', password: 'long password' });
      expect(users.get(user.id).isVerified).toBe(false);
      expect(mail.linkTo('self@example.com')).toBeDefined();
    });
  });
});
