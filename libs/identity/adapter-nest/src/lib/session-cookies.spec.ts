import { challengeOf, cookiesOf, dashboardPath, newPendingSignIn, PendingSignInSeal, SessionCookies } from './session-cookies';

describe("the dashboard sign-in's cookies", () => {
  const seal = new PendingSignInSeal(Buffer.alloc(32, 7));
  const now = Date.parse('2026-11-27T12:00:00.000Z');

  it('opens what it sealed, until it expires ten minutes later', () => {
    const pending = newPendingSignIn('/app/tokens', now);
    expect(seal.open(seal.seal(pending), now + 599_000)).toEqual(pending);
    expect(seal.open(seal.seal(pending), now + 600_000)).toBeNull();
  });

  it('refuses a value sealed with another key, altered, or malformed (a cookie planted by someone else)', () => {
    const pending = newPendingSignIn('/app/', now);
    const sealed = seal.seal(pending);
    expect(new PendingSignInSeal(Buffer.alloc(32, 8)).open(sealed, now)).toBeNull();
    const [body, mac] = sealed.split('.');
    const altered = Buffer.from(JSON.stringify({ ...pending, state: 'chosen-by-attacker' })).toString('base64url');
    for (const value of [`${altered}.${mac}`, `${body}.${mac}x`, body, `${body}.${mac}.extra`, '', undefined])
      expect(seal.open(value, now)).toBeNull();
  });

  it('makes each sign-in a new state and verifier, and the S256 challenge of RFC 7636', () => {
    const a = newPendingSignIn('/app/', now);
    const b = newPendingSignIn('/app/', now);
    expect(a.state).not.toBe(b.state);
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // RFC 7636 appendix B.
    expect(challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('returns only to a page of the dashboard (no open redirect)', () => {
    expect(dashboardPath('/app/tokens?start=20')).toBe('/app/tokens?start=20');
    expect(dashboardPath('/app')).toBe('/app');
    for (const target of [
      undefined,
      '',
      'https://evil.example/app/',
      '//evil.example/app/',
      '/\\evil.example/app',
      '/app/../docs',
      '/app/%2e%2e/docs',
      '/application',
      '/app/auth/sign-out',
      'app/tokens',
      'javascript:alert(1)',
    ]) {
      expect(dashboardPath(target)).toBe('/app/');
    }
  });

  it('writes the session cookie HttpOnly, SameSite=Strict, for /app/auth only, Secure over https', () => {
    const expires = new Date('2026-12-27T12:00:00.000Z');
    expect(new SessionCookies('https://lnk.example.com').session('rt_x', expires)).toBe(
      'lnk_dashboard_session=rt_x; Path=/app/auth; Expires=Sun, 27 Dec 2026 12:00:00 GMT; HttpOnly; Secure; SameSite=Strict',
    );
    expect(new SessionCookies('http://localhost:3000').session('rt_x', expires)).not.toContain('Secure');
    expect(cookiesOf('a=1; lnk_dashboard_session=rt_y')).toEqual({ a: '1', lnk_dashboard_session: 'rt_y' });
    expect(cookiesOf(undefined)).toEqual({});
  });
});
