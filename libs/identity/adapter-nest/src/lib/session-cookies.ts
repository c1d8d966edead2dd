import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie, type SerializeOptions, stringifySetCookie } from 'cookie';

/** The refresh token of the dashboard's session: HttpOnly, SameSite=Strict, sent to /app/auth only. */
export const SESSION_COOKIE = 'lnk_dashboard_session';
/** The sign-in under way (state, PKCE verifier, where to return): HttpOnly, signed, ten minutes. */
export const SIGN_IN_COOKIE = 'lnk_dashboard_sign_in';
/** Both cookies go to the session endpoints only: no API route or static file ever receives them. */
export const SESSION_PATH = '/app/auth';
/**
 * The header every cookie-authenticated POST must carry: a cross-site form cannot set it, and a cross-site fetch with it needs a CORS
 * preflight the API never grants.
 */
export const CSRF_HEADER = 'x-lnk-dashboard';

export const SIGN_IN_SECONDS = 600;

export interface PendingSignIn {
  state: string;
  verifier: string;
  /** A path of the dashboard to go back to once signed in. */
  returnTo: string;
  /** Unix milliseconds after which the sign-in is refused. */
  expiresAt: number;
}

const random = (): string => randomBytes(32).toString('base64url');

/** A PKCE S256 challenge (RFC 7636 section 4.2). */
export const challengeOf = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

export function newPendingSignIn(returnTo: string, now: number): PendingSignIn {
  return { state: random(), verifier: random(), returnTo, expiresAt: now + SIGN_IN_SECONDS * 1000 };
}

/**
 * A path of the dashboard only, as the browser will resolve it (dot segments and backslashes included):
 * never another origin, nor `//host`, nor a page outside /app; anything else returns to its start.
 */
export function dashboardPath(value: string | undefined): string {
  const base = 'http://dashboard.invalid';
  let url: URL;
  try {
    url = new URL(value ?? '/app/', base);
  } catch {
    return '/app/';
  }
  const inside =
    url.origin === base && (url.pathname === '/app' || url.pathname.startsWith('/app/')) && !url.pathname.startsWith('/app/auth/');
  return inside && value?.startsWith('/') && !value.startsWith('//') ? url.pathname + url.search : '/app/';
}

/**
 * The pending sign-in rides in a cookie signed with a key only the server knows, so a cookie set by
 * anyone else (a sibling subdomain, a script that wrote it) cannot pair its own state with a code.
 */
export class PendingSignInSeal {
  constructor(private readonly key: Buffer) {}

  seal(pending: PendingSignIn): string {
    const body = Buffer.from(JSON.stringify(pending)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The pending sign-in, or null when the value was altered, is malformed or has expired. */
  open(value: string | undefined, now: number): PendingSignIn | null {
    if (!value) return null;
    const [body, signature, ...rest] = value.split('.');
    if (!body || !signature || rest.length) return null;
    const expected = Buffer.from(this.mac(body));
    const actual = Buffer.from(signature);
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
    try {
      const pending = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as PendingSignIn;
      if (
        typeof pending.state !== 'string' ||
        typeof pending.verifier !== 'string' ||
        typeof pending.returnTo !== 'string' ||
        typeof pending.expiresAt !== 'number'
      )
        return null;
      return pending.expiresAt > now ? pending : null;
    } catch {
      return null;
    }
  }

  private mac(value: string): string {
    return createHmac('sha256', this.key).update(`dashboard-sign-in:${value}`).digest('base64url');
  }
}

/** The cookies of one request, by name (an unparsable header reads as none). */
export function cookiesOf(header: string | undefined): Record<string, string | undefined> {
  if (!header) return {};
  try {
    return parseCookie(header);
  } catch {
    return {};
  }
}

/** Set-Cookie values for the session's cookies; Secure whenever the service is reached over https. */
export class SessionCookies {
  private readonly base: SerializeOptions;

  constructor(publicBaseUrl: string) {
    this.base = { httpOnly: true, path: SESSION_PATH, secure: new URL(publicBaseUrl).protocol === 'https:' };
  }

  session(refreshToken: string, expires: Date): string {
    return stringifySetCookie(SESSION_COOKIE, refreshToken, { ...this.base, sameSite: 'strict', expires });
  }

  /** Lax, not Strict: it must come back on the navigation that ends the sign-in, whatever page began it. */
  signIn(sealed: string): string {
    return stringifySetCookie(SIGN_IN_COOKIE, sealed, { ...this.base, sameSite: 'lax', maxAge: SIGN_IN_SECONDS });
  }

  cleared(name: typeof SESSION_COOKIE | typeof SIGN_IN_COOKIE): string {
    return stringifySetCookie(name, '', { ...this.base, sameSite: name === SESSION_COOKIE ? 'strict' : 'lax', expires: new Date(0) });
  }
}
