import { CountingPasswordHasher, FixedClock } from '@lnk/shared/testing';
import { CappedLoginThrottle, MemoryUserRepository } from '@lnk/identity/testing';
import { RateLimitedError, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { BackupCodeRepository } from '../ports/account.repositories';
import { SecretBox } from '../ports/secret-box';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository } from '../ports/token.repositories';
import { TotpService, TwoFactorStateRepository } from '../ports/two-factor';
import { ConfirmTwoFactorUseCase } from '../use-cases/confirm-two-factor.use-case';
import { SetTwoFactorUseCase } from '../use-cases/set-two-factor.use-case';
import { Reauthentication, ReauthenticationRequiredError } from './reauthentication';
import { SecondFactor } from './second-factor';
import { TokenIssuer } from './token-issuer';

// Small in-memory fakes of the ports, copying on read and write as the real adapters do.
class States extends TwoFactorStateRepository {
  pending = new Map<string, string>();
  lastStep = new Map<string, number>();
  async savePending(userId: string, sealed: string) {
    this.pending.set(userId, sealed);
  }
  async findPending(userId: string) {
    return this.pending.get(userId) ?? null;
  }
  async deletePending(userId: string, sealed?: string) {
    const current = this.pending.get(userId);
    if (current === undefined || (sealed !== undefined && current !== sealed)) return false;
    return this.pending.delete(userId);
  }
  async useStep(userId: string, step: number) {
    if ((this.lastStep.get(userId) ?? -1) >= step) return false;
    this.lastStep.set(userId, step);
    return true;
  }
}

class BackupCodes extends BackupCodeRepository {
  codes = new Map<string, Set<string>>();
  async replace(userId: string, hashes: string[]) {
    this.codes.set(userId, new Set(hashes));
  }
  async consume(userId: string, hash: string) {
    return this.codes.get(userId)?.delete(hash) ?? false;
  }
  async deleteAll(userId: string) {
    this.codes.delete(userId);
  }
}

/** Codes look like `<secret>@<step>`: valid for the secret at steps 99 to 101 ("now" is step 100). */
const totp: TotpService = {
  enrol: async () => ({ secret: `SECRET${++enrolments}`, otpauthUrl: 'otpauth://totp/x', qrCodeDataUri: 'data:image/png;base64,' }),
  verify: (secret, code) => {
    const [s, step] = code.split('@');
    return s === secret && Math.abs(Number(step) - 100) <= 1 ? Number(step) : null;
  },
};
let enrolments = 0;
const box: SecretBox = { seal: (s) => `sealed:${s}`, open: (s) => (s.startsWith('sealed:') ? s.slice(7) : null) };
const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };
const unitOfWork: UnitOfWork = { run: (work) => work() };
let n = 0;
const ids = { next: () => (++n).toString(16).padStart(24, '0') };

const principalOf = (userId: string, authTime: Date | null, via: 'oauth' | 'pat' = 'oauth'): Principal => ({
  userId,
  scopes: ['user:write'],
  via,
  tokenId: 't1',
  clientId: via === 'oauth' ? 'c1' : null,
  grantExpiresAt: null,
  authTime,
});

describe('reauthentication for sensitive account actions', () => {
  let clock: FixedClock;
  let passwords: CountingPasswordHasher;
  let throttle: CappedLoginThrottle;
  let reauthentication: Reauthentication;
  let users: MemoryUserRepository;
  const ip = '203.0.113.7';

  beforeEach(async () => {
    clock = new FixedClock(new Date('2026-03-01T12:00:00.000Z'));
    passwords = new CountingPasswordHasher();
    throttle = new CappedLoginThrottle();
    reauthentication = new Reauthentication(passwords, throttle, clock);
    users = new MemoryUserRepository();
    const props = { name: '', isVerified: true, isActive: true, twoFactorSecret: null, createdAt: clock.now(), updatedAt: clock.now() };
    await users.insert(new User({ ...props, id: 'ada', email: 'ada@example.com', passwordHash: 'hashed:correct horse' }));
    await users.insert(new User({ ...props, id: 'idp', email: 'idp@example.com', passwordHash: null }));
  });

  const ada = async () => (await users.findById('ada')) as User;

  it('passes a token whose sign-in is at most 10 minutes old, without a password', async () => {
    const signedIn = clock.now();
    clock.advance(10 * 60_000);
    await expect(reauthentication.confirm(await ada(), principalOf('ada', signedIn), { ip })).resolves.toBeUndefined();
    expect(passwords.verified).toBe(0);
  });

  it(
    'refuses an older sign-in, a PAT and a token of no sign-in (the code flow) ' +
      'with REAUTHENTICATION_REQUIRED (a leaked token cannot take over)',
    async () => {
      const signedIn = clock.now();
      clock.advance(11 * 60_000);
      for (const principal of [principalOf('ada', signedIn), principalOf('ada', null, 'pat'), principalOf('ada', null)]) {
        const refused = reauthentication.confirm(await ada(), principal, { ip });
        await expect(refused).rejects.toBeInstanceOf(ReauthenticationRequiredError);
        await expect(refused).rejects.toMatchObject({
          code: 'REAUTHENTICATION_REQUIRED',
          message: expect.stringContaining('currentPassword'),
        });
      }
    },
  );

  it('passes a stale token with the right password, and counts a wrong one with the login throttle on the sign-in keys', async () => {
    const stale = principalOf('ada', null);
    await expect(reauthentication.confirm(await ada(), stale, { ip, currentPassword: 'wrong' })).rejects.toMatchObject({
      errors: [{ name: 'currentPassword' }],
    });
    expect(throttle.counts.get('account:ada@example.com')).toBe(1);
    expect(throttle.counts.get(`account-ip:ada@example.com|${ip}`)).toBe(1);
    await expect(reauthentication.confirm(await ada(), stale, { ip, currentPassword: 'correct horse' })).resolves.toBeUndefined();
    expect(throttle.counts.get('account:ada@example.com')).toBe(1); // the right password is not counted as a failure
  });

  it('checks a password that is sent even with a fresh token (a wrong one is never ignored)', async () => {
    await expect(
      reauthentication.confirm(await ada(), principalOf('ada', clock.now()), { ip, currentPassword: 'wrong' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('refuses guesses past the throttle before they reach the password check (no brute force through a stolen token)', async () => {
    const stale = principalOf('ada', null);
    for (let i = 0; i < 10; i++)
      await expect(reauthentication.confirm(await ada(), stale, { ip, currentPassword: `guess ${i}` })).rejects.toBeInstanceOf(
        ValidationError,
      );
    const checked = passwords.verified;
    await expect(reauthentication.confirm(await ada(), stale, { ip, currentPassword: 'correct horse' })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    expect(passwords.verified).toBe(checked);
  });

  it('tells an account without a password to sign in again with its identity provider', async () => {
    const idp = (await users.findById('idp')) as User;
    const refused = reauthentication.confirm(idp, principalOf('idp', null), { ip, currentPassword: 'anything' });
    await expect(refused).rejects.toMatchObject({
      code: 'REAUTHENTICATION_REQUIRED',
      message: expect.stringContaining('identity provider'),
    });
    await expect(reauthentication.confirm(idp, principalOf('idp', clock.now()), { ip })).resolves.toBeUndefined();
  });

  describe('two-factor enrolment', () => {
    let states: States;
    let backupCodes: BackupCodes;
    let setTwoFactor: SetTwoFactorUseCase;
    let confirm: ConfirmTwoFactorUseCase;
    let secondFactor: SecondFactor;

    beforeEach(() => {
      states = new States();
      backupCodes = new BackupCodes();
      secondFactor = new SecondFactor({ totp, box, backupCodes, hasher, clock, states });
      const secrets = { generate: () => 'x'.repeat(16) };
      setTwoFactor = new SetTwoFactorUseCase({
        users,
        totp,
        box,
        backupCodes,
        secondFactor,
        secrets,
        hasher,
        unitOfWork,
        clock,
        reauthentication,
        states,
      });
      confirm = new ConfirmTwoFactorUseCase({ users, totp, box, states, reauthentication, unitOfWork, clock });
    });

    const fresh = () => principalOf('ada', clock.now());

    it(
      'keeps a new enrolment pending (sign-in does not ask) until a current code ' +
        'of its secret confirms it (no lock-out by a token holder)',
      async () => {
        const started = await setTwoFactor.execute(fresh(), { enable: true, ip });
        if (!started.enabled) throw new Error('expected an enrolment');
        expect((await ada()).isTwoFactorEnabled).toBe(false);
        await expect(confirm.execute(fresh(), { code: `${started.secret}@150`, ip })).rejects.toMatchObject({ errors: [{ name: 'code' }] });
        await expect(confirm.execute(fresh(), { code: 'OTHER@100', ip })).rejects.toMatchObject({ errors: [{ name: 'code' }] });
        expect((await ada()).isTwoFactorEnabled).toBe(false);
        expect(throttle.counts.get('account:ada@example.com')).toBe(2); // wrong codes count as sign-in failures
        await confirm.execute(fresh(), { code: `${started.secret}@100`, ip });
        expect((await ada()).twoFactorSecret).toBe(`sealed:${started.secret}`);
        expect(states.pending.size).toBe(0);
      },
    );

    it('replaces a pending enrolment with a new one: the first secret can no longer be confirmed', async () => {
      const first = await setTwoFactor.execute(fresh(), { enable: true, ip });
      const second = await setTwoFactor.execute(fresh(), { enable: true, ip });
      if (!first.enabled || !second.enabled) throw new Error('expected enrolments');
      await expect(confirm.execute(fresh(), { code: `${first.secret}@100`, ip })).rejects.toBeInstanceOf(ValidationError);
      await confirm.execute(fresh(), { code: `${second.secret}@100`, ip });
      expect((await ada()).twoFactorSecret).toBe(`sealed:${second.secret}`);
    });

    it('needs a fresh sign-in or the password to enrol or to turn it off', async () => {
      await expect(setTwoFactor.execute(principalOf('ada', null), { enable: true, ip })).rejects.toBeInstanceOf(
        ReauthenticationRequiredError,
      );
      const started = await setTwoFactor.execute(principalOf('ada', null), { enable: true, ip, currentPassword: 'correct horse' });
      if (!started.enabled) throw new Error('expected an enrolment');
      await confirm.execute(principalOf('ada', null), { code: `${started.secret}@99`, ip });
      await expect(
        setTwoFactor.execute(principalOf('ada', null, 'pat'), { enable: false, code: `${started.secret}@100`, ip }),
      ).rejects.toBeInstanceOf(ReauthenticationRequiredError);
      expect((await ada()).isTwoFactorEnabled).toBe(true);
      await setTwoFactor.execute(fresh(), { enable: false, code: `${started.secret}@100`, ip });
      expect((await ada()).isTwoFactorEnabled).toBe(false);
    });

    it(
      'accepts each TOTP step once: the confirming code, or an earlier ' + 'one, cannot sign in again (replay within the 30 seconds)',
      async () => {
        const started = await setTwoFactor.execute(fresh(), { enable: true, ip });
        if (!started.enabled) throw new Error('expected an enrolment');
        await confirm.execute(fresh(), { code: `${started.secret}@100`, ip });
        const user = await ada();
        expect(await secondFactor.verify(user, `${started.secret}@100`)).toBe(false);
        expect(await secondFactor.verify(user, `${started.secret}@99`)).toBe(false);
        expect(await secondFactor.verify(user, `${started.secret}@101`)).toBe(true);
        expect(await secondFactor.verify(user, `${started.secret}@101`)).toBe(false);
      },
    );
  });
});

describe('the sign-in time of tokens', () => {
  // The issuer only inserts.
  const tokens = { insert: async () => undefined } as unknown as OAuthTokenRepository;

  it('is now for a sign-in, the family’s original time for a refresh, and none for anything else', async () => {
    const clock = new FixedClock(new Date('2026-03-01T12:00:00.000Z'));
    const issuer = new TokenIssuer({
      tokens,
      secrets: { generate: () => `r${++n}` },
      hasher,
      ids,
      clock,
      lifetimes: { accessSeconds: 3600, refreshSeconds: 86400 },
    });
    const signedIn = await issuer.issue({ userId: 'u1', clientId: 'c1', scopes: ['user:write'], signedIn: true });
    expect(signedIn.token.props.authTime).toEqual(clock.now());
    const started = clock.now();
    clock.advance(30 * 60_000);
    const refreshed = await issuer.issue({
      userId: 'u1',
      clientId: 'c1',
      scopes: ['user:write'],
      familyId: signedIn.token.props.familyId,
      authTime: signedIn.token.props.authTime,
    });
    expect(refreshed.token.props.authTime).toEqual(started);
    const byCode = await issuer.issue({ userId: 'u1', clientId: 'c1', scopes: ['user:write'], authorizationCodeId: 'code1' });
    expect(byCode.token.props.authTime).toBeNull();
  });
});
