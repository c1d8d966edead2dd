import { CountingPasswordHasher, FixedClock } from '@lnk/shared/testing';
import { CappedLoginThrottle, MemoryPersonalAccessTokenRepository, MemoryUserRepository } from '@lnk/identity/testing';
import { ForbiddenError } from '@lnk/shared/kernel';
import { OAuthClient, OAuthClientProps } from './model/oauth-client.entity';
import { Principal } from './model/tokens';
import { User, UserProps } from './model/user.entity';
import { MailMessage, Mailer } from './ports/mailer';
import { OAuthClientRepository } from './ports/oauth-client.repository';
import { SecretGenerator } from './ports/secret-generator';
import { SecretHasher } from './ports/secret-hasher';
import { Reauthentication, ReauthenticationRequiredError } from './services/reauthentication';
import { PersonalAccessTokenNotices } from './services/token-notices';
import { CreatePersonalAccessTokenUseCase } from './use-cases/create-personal-access-token.use-case';
import { RevokeAllPersonalAccessTokensUseCase } from './use-cases/revoke-all-personal-access-tokens.use-case';

// Small in-memory fakes of the ports, honouring their contracts.
let n = 0;
const ids = { next: () => (++n).toString(16).padStart(24, '0') };
const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };
const secrets: SecretGenerator = { generate: () => `r${++n}` };
const started = new Date('2026-03-01T00:00:00.000Z');
const ip = '198.51.100.4';
const withPassword = { ip, currentPassword: 'correct horse' };

class RecordingMailer extends Mailer {
  sent: MailMessage[] = [];
  failing = false;
  async send(message: MailMessage): Promise<void> {
    if (this.failing) throw new Error('SMTP server unreachable');
    this.sent.push(message);
  }
}

function client(over: Partial<OAuthClientProps>): OAuthClient {
  return new OAuthClient({
    id: ids.next(),
    clientId: `cl_${ids.next()}`,
    secretHash: 'h:secret',
    ownerId: null,
    requestedBy: null,
    name: 'App',
    description: '',
    scopes: ['user:read', 'tokens:write'],
    redirectUris: [],
    isFirstParty: true,
    isActive: true,
    createdAt: started,
    updatedAt: started,
    ...over,
  });
}
const firstParty = client({});
const thirdParty = client({ isFirstParty: false, ownerId: 'ada' });
const clients = {
  findById: async (id: string) => [firstParty, thirdParty].find((c) => c.id === id) ?? null,
} as unknown as OAuthClientRepository;

function account(over: Partial<UserProps>): User {
  return new User({
    id: 'ada',
    email: 'ada@example.com',
    name: 'Ada',
    passwordHash: 'hashed:correct horse',
    isVerified: true,
    isActive: true,
    twoFactorSecret: null,
    createdAt: started,
    updatedAt: started,
    ...over,
  });
}

describe('personal access tokens', () => {
  let clock: FixedClock;
  let pats: MemoryPersonalAccessTokenRepository;
  let users: MemoryUserRepository;
  let mailer: RecordingMailer;
  let throttle: CappedLoginThrottle;
  let create: CreatePersonalAccessTokenUseCase;

  const inDays = (days: number) => new Date(clock.now().getTime() + days * 86_400_000);
  /** A PAT making the request: never a sign-in. */
  const byPat = (over: Partial<Principal> = {}): Principal => ({
    userId: 'ada',
    scopes: ['tokens:write', 'user:read', 'links:read'],
    via: 'pat',
    tokenId: 'p0',
    clientId: null,
    grantExpiresAt: null,
    authTime: null,
    ...over,
  });
  /** An access token of a first-party client's password sign-in `minutesAgo` minutes ago, its session ending in a day. */
  const bySignIn = (minutesAgo = 0, over: Partial<Principal> = {}): Principal => ({
    ...byPat(),
    via: 'oauth',
    tokenId: 't1',
    clientId: firstParty.id,
    grantExpiresAt: inDays(1),
    authTime: new Date(clock.now().getTime() - minutesAgo * 60_000),
    ...over,
  });

  beforeEach(async () => {
    clock = new FixedClock(started);
    pats = new MemoryPersonalAccessTokenRepository();
    users = new MemoryUserRepository();
    await users.insert(account({}));
    await users.insert(account({ id: 'idp', email: 'idp@example.com', passwordHash: null }));
    mailer = new RecordingMailer();
    throttle = new CappedLoginThrottle();
    create = new CreatePersonalAccessTokenUseCase({
      mint: { pats, secrets, hasher, ids, maxActive: 3 },
      clients,
      users,
      reauthentication: new Reauthentication(new CountingPasswordHasher(), throttle, clock),
      notices: new PersonalAccessTokenNotices(mailer),
      clock,
    });
  });

  it('grants no scope beyond those of the token creating it, no unknown scope and not none', async () => {
    for (const scopes of [['links:write'], ['nope'], []]) {
      await expect(create.execute(bySignIn(), { name: 'x', scopes }, { ip })).rejects.toMatchObject({ errors: [{ name: 'scopes' }] });
    }
    const { token, value } = await create.execute(bySignIn(), { name: 'x', scopes: ['links:read'] }, { ip });
    expect(value.startsWith('tkn_')).toBe(true);
    expect(token.props.tokenHash).toBe(`h:${value}`);
  });

  it('refuses an expiry in the past, and expires when its time comes', async () => {
    await expect(create.execute(bySignIn(), { name: 'x', scopes: ['links:read'], expiresAt: clock.now() }, { ip })).rejects.toMatchObject({
      errors: [{ name: 'expiresAt' }],
    });
    const { token } = await create.execute(
      bySignIn(),
      { name: 'x', scopes: ['links:read'], expiresAt: new Date(clock.now().getTime() + 1000) },
      { ip },
    );
    expect(token.isActive(clock.now())).toBe(true);
    clock.advance(1000);
    expect(token.isExpired(clock.now())).toBe(true);
    expect(token.isActive(clock.now())).toBe(false);
  });

  // Spec 2.4: a PAT does not expire unless expiresAt is set; signing out of a session must not end the PATs made with it.
  it('gives a PAT made through a sign-in no expiry unless one is asked for, and any expiry asked for, past the session', async () => {
    expect((await create.execute(bySignIn(), { name: 'x', scopes: ['links:read'] }, { ip })).token.props.expiresAt).toBeNull();
    expect(
      (await create.execute(bySignIn(), { name: 'x', scopes: ['links:read'], expiresAt: null }, { ip })).token.props.expiresAt,
    ).toBeNull();
    const later = inDays(365);
    expect(
      (await create.execute(bySignIn(), { name: 'x', scopes: ['links:read'], expiresAt: later }, { ip })).token.props.expiresAt,
    ).toEqual(later);
  });

  // Defends against an expiring PAT minting a never-expiring one that outlives it.
  it('caps a PAT made by an expiring PAT at its parent: by default, and refusing a later expiry', async () => {
    const parent = byPat({ grantExpiresAt: inDays(1) });
    expect((await create.execute(parent, { name: 'x', scopes: ['links:read'] }, withPassword)).token.props.expiresAt).toEqual(inDays(1));
    await expect(create.execute(parent, { name: 'x', scopes: ['links:read'], expiresAt: inDays(2) }, withPassword)).rejects.toMatchObject({
      errors: [{ name: 'expiresAt' }],
    });
    const earlier = new Date(clock.now().getTime() + 3_600_000);
    expect(
      (await create.execute(parent, { name: 'x', scopes: ['links:read'], expiresAt: earlier }, withPassword)).token.props.expiresAt,
    ).toEqual(earlier);
  });

  it('makes a never-expiring PAT from a never-expiring one', async () => {
    expect((await create.execute(byPat(), { name: 'x', scopes: ['links:read'] }, withPassword)).token.props.expiresAt).toBeNull();
  });

  // Defends against a stolen session (or PAT) minting a PAT that outlives it: minting needs a fresh sign-in or the password.
  it('refuses a sign-in older than 10 minutes and a PAT without the current password, storing and mailing nothing', async () => {
    expect((await create.execute(bySignIn(10), { name: 'fresh', scopes: ['links:read'] }, { ip })).token.props.name).toBe('fresh');
    mailer.sent = [];
    for (const principal of [bySignIn(11), byPat()]) {
      const refused = create.execute(principal, { name: 'x', scopes: ['links:read'] }, { ip });
      await expect(refused).rejects.toBeInstanceOf(ReauthenticationRequiredError);
      await expect(refused).rejects.toMatchObject({
        code: 'REAUTHENTICATION_REQUIRED',
        message: expect.stringContaining('currentPassword'),
      });
    }
    expect(pats.rows).toHaveLength(1);
    expect(mailer.sent).toEqual([]);
    expect((await create.execute(byPat(), { name: 'x', scopes: ['links:read'] }, withPassword)).token.props.userId).toBe('ada');
  });

  // Defends against a stolen token guessing the password through this route beyond the sign-in's limits.
  it('refuses a wrong current password as VALIDATION_ERROR on currentPassword, counted with the sign-in throttle', async () => {
    await expect(create.execute(byPat(), { name: 'x', scopes: ['links:read'] }, { ip, currentPassword: 'wrong' })).rejects.toMatchObject({
      errors: [{ name: 'currentPassword' }],
    });
    expect(throttle.counts.get('account:ada@example.com')).toBe(1);
    expect(pats.rows).toEqual([]);
  });

  it('tells an account without a password to sign in again with its identity provider, and takes a fresh provider sign-in', async () => {
    const refused = create.execute(byPat({ userId: 'idp' }), { name: 'x', scopes: ['links:read'] }, { ip });
    await expect(refused).rejects.toMatchObject({
      code: 'REAUTHENTICATION_REQUIRED',
      message: expect.stringContaining('identity provider'),
    });
    expect((await create.execute(bySignIn(1, { userId: 'idp' }), { name: 'x', scopes: ['links:read'] }, { ip })).token.props.userId).toBe(
      'idp',
    );
  });

  // Defends against a PAT minted in the owner's name going unnoticed.
  it('mails the account of every new PAT: its name, scopes, expiry and the address it came from, never its value', async () => {
    const { token, value } = await create.execute(
      bySignIn(),
      { name: 'deploy', scopes: ['links:read', 'user:read'], expiresAt: inDays(30) },
      { ip },
    );
    expect(mailer.sent).toHaveLength(1);
    const [mail] = mailer.sent;
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toContain('personal access token');
    for (const part of ['"deploy"', 'user:read links:read', inDays(30).toISOString(), ip, token.props.id, 'revoke-all'])
      expect(mail.text).toContain(part);
    expect(mail.text).not.toContain(value);
  });

  it('takes the PAT back when its notice cannot be sent, so none exists that the owner was not told of', async () => {
    mailer.failing = true;
    await expect(create.execute(bySignIn(), { name: 'x', scopes: ['links:read'] }, { ip })).rejects.toThrow('SMTP server unreachable');
    expect(pats.rows).toEqual([]);
  });

  // Defends against one account multiplying credentials, each with a rate-limit budget of its own.
  it('refuses a PAT beyond the bound of active ones with QUOTA_EXCEEDED, counting no expired one, and mails nothing for it', async () => {
    await create.execute(
      bySignIn(),
      { name: 'short', scopes: ['links:read'], expiresAt: new Date(clock.now().getTime() + 60_000) },
      { ip },
    );
    for (const name of ['a', 'b']) await create.execute(bySignIn(), { name, scopes: ['links:read'] }, { ip });
    mailer.sent = [];
    await expect(create.execute(bySignIn(), { name: 'c', scopes: ['links:read'] }, { ip })).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: expect.stringContaining('revoke one'),
      meta: { limit: { resource: 'personalAccessTokens', used: 3, limit: 3 } },
    });
    expect(mailer.sent).toEqual([]);
    clock.advance(60_000);
    expect((await create.execute(bySignIn(), { name: 'c', scopes: ['links:read'] }, { ip })).token.props.name).toBe('c');
  });

  // Defends against a third-party app granted tokens:write turning its revocable grant into a PAT.
  it("refuses a third-party application's token", async () => {
    const app = bySignIn(0, { clientId: thirdParty.id });
    await expect(create.execute(app, { name: 'x', scopes: ['links:read'] }, withPassword)).rejects.toBeInstanceOf(ForbiddenError);
    expect(pats.rows).toEqual([]);
  });

  describe('revoking them all', () => {
    let revocations: number;
    let revokeAll: RevokeAllPersonalAccessTokensUseCase;

    beforeEach(() => {
      revocations = 0;
      revokeAll = new RevokeAllPersonalAccessTokensUseCase(pats, { tokensRevoked: () => void revocations++ });
    });

    it('revokes every PAT of the account from a sign-in, and no one else’s, emptying the caches of accepted tokens', async () => {
      for (const name of ['a', 'b']) await create.execute(bySignIn(), { name, scopes: ['links:read'] }, { ip });
      await create.execute(bySignIn(0, { userId: 'idp' }), { name: 'theirs', scopes: ['links:read'] }, { ip });
      expect(await revokeAll.execute(bySignIn())).toEqual({ revoked: 2, keptTokenId: null });
      expect(pats.rows.map((p) => p.props.name)).toEqual(['theirs']);
      expect(revocations).toBe(1);
    });

    // Spec 3: the token used for a request cannot be revoked by it.
    it('spares the PAT making the request', async () => {
      const { token: mine } = await create.execute(bySignIn(), { name: 'mine', scopes: ['links:read'] }, { ip });
      await create.execute(bySignIn(), { name: 'other', scopes: ['links:read'] }, { ip });
      expect(await revokeAll.execute(byPat({ tokenId: mine.props.id }))).toEqual({ revoked: 1, keptTokenId: mine.props.id });
      expect(pats.rows.map((p) => p.props.id)).toEqual([mine.props.id]);
    });
  });
});
