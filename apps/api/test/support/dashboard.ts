import type { TestApp } from './test-app';

/** The value of cookie `name` among an answer's Set-Cookie headers, with its attributes, or undefined. */
export function setCookie(headers: Headers, name: string): { value: string; attributes: string } | undefined {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!line) return undefined;
  const [pair, ...attributes] = line.split(';');
  return { value: pair.slice(name.length + 1), attributes: attributes.map((a) => a.trim()).join('; ') };
}

function field(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  if (value === undefined) throw new Error(`the authorization page has no ${name} field`);
  return value.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

export interface DashboardSignIn {
  /** The Set-Cookie value of the session (the refresh token). */
  session: string;
  /** Where the callback sent the browser. */
  landedAt: string;
}

/**
 * The dashboard's sign-in over plain HTTP, as a browser goes through it: GET /app/auth/sign-in (its
 * cookie kept), the authorization page, its form posted with the credentials, the callback with the code.
 */
export async function dashboardSignIn(
  t: TestApp,
  credentials: { email: string; password: string; otp?: string },
  returnTo?: string,
): Promise<DashboardSignIn> {
  const start = await t.request('GET', `/app/auth/sign-in${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`);
  const pending = setCookie(start.headers, 'lnk_dashboard_sign_in');
  if (start.status !== 302 || !pending) throw new Error(`the sign-in did not start: ${start.status}`);
  const authorize = new URL(start.headers.get('location') ?? '');
  const toPage = await t.request('GET', authorize.pathname + authorize.search);
  const page = await t.request(
    'GET',
    new URL(toPage.headers.get('location') ?? '').pathname + new URL(toPage.headers.get('location') ?? '').search,
  );
  const form = new URLSearchParams({
    request: field(page.text, 'request'),
    signature: field(page.text, 'signature'),
    decision: 'approve',
    email: credentials.email,
    password: credentials.password,
    ...(credentials.otp ? { otp: credentials.otp } : {}),
  });
  const decided = await t.request('POST', '/oauth/authorize', {
    raw: { body: form.toString(), contentType: 'application/x-www-form-urlencoded' },
  });
  if (decided.status !== 302)
    throw new Error(`the authorization page refused the sign-in: ${decided.status} ${decided.text.slice(0, 300)}`);
  const callback = new URL(decided.headers.get('location') ?? '');
  const back = await t.request('GET', callback.pathname + callback.search, {
    headers: { cookie: `lnk_dashboard_sign_in=${pending.value}` },
  });
  const session = setCookie(back.headers, 'lnk_dashboard_session');
  if (back.status !== 302 || !session?.value)
    throw new Error(`the callback set no session: ${back.status} ${back.headers.get('location')}`);
  return { session: session.value, landedAt: back.headers.get('location') ?? '' };
}

/** What the dashboard's page sends with its cookie-authenticated POSTs. */
export function dashboardHeaders(t: TestApp, session?: string): Record<string, string> {
  return { 'x-lnk-dashboard': '1', origin: t.baseUrl, ...(session ? { cookie: `lnk_dashboard_session=${session}` } : {}) };
}
