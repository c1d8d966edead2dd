import { createAccount } from './support/identity';
import { TestApp, useTestApp } from './support/test-app';

describe('what every response carries: security headers, request ids; health; the /v1 prefix', () => {
  let t: TestApp;
  useTestApp((app) => (t = app));

  // Issue 13: a bodiless redirect carries no document headers (short-url-dispatch.e2e-spec.ts pins what it carries).
  it('sends the security headers on API answers, errors, 404s and pages', async () => {
    const ada = await createAccount(t);
    await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://dest.example/', slug: 'go' } });
    const answers = await Promise.all([
      t.request('GET', '/health'),
      t.request('GET', '/user/me'),
      t.request('GET', '/no/such/route'),
      t.request('GET', '/go'),
      t.request('GET', '/missing-slug'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 302, 404]);
    for (const answer of answers.filter((a) => a.status !== 302)) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toMatch(/DENY|SAMEORIGIN/);
      expect(answer.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(answer.headers.get('referrer-policy')).toBeTruthy();
      expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(answer.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('gives every response a request id, keeping a sane one the caller sent', async () => {
    const made = await t.request('GET', '/health');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.request('GET', '/user/me', { headers: { 'x-request-id': 'trace-42.a:b' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.a:b');
    const replaced = await t.request('GET', '/health', { headers: { 'x-request-id': 'x'.repeat(300) } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const other = await t.request('GET', '/health');
    expect(other.headers.get('x-request-id')).not.toBe(made.headers.get('x-request-id'));
  });

  it('answers liveness and readiness beside /health', async () => {
    expect((await t.request('GET', '/health/live')).body).toMatchObject({ status: 200, data: { status: 'ok' } });
    expect((await t.request('GET', '/health/ready')).body).toMatchObject({ status: 200, data: { status: 'ok', database: 'up' } });
  });

  it('answers the same API under /v1, access rules included', async () => {
    const ada = await createAccount(t);
    const me = await t.request('GET', '/v1/user/me', { token: ada.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(ada.id);
    expect((await t.request('GET', '/v1/user/me')).status).toBe(401);
    expect((await t.request('GET', '/v1/health?x=1')).status).toBe(200);
    expect((await t.request('GET', '/v1/no/such/route')).status).toBe(404);
  });

  it('sends no CORS headers when CORS_ORIGINS is unset', async () => {
    const answer = await t.request('GET', '/health', { headers: { origin: 'https://evil.example' } });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS with CORS_ORIGINS', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { env: { CORS_ORIGINS: 'https://app.example, https://admin.example' } });

  it('answers preflights of allowed origins and exposes the headers clients need; others get nothing', async () => {
    const preflight = await t.request('OPTIONS', '/user/link', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');

    const simple = await t.request('GET', '/health', { headers: { origin: 'https://admin.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBe('https://admin.example');
    expect(simple.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');

    const denied = await t.request('GET', '/health', { headers: { origin: 'https://evil.example' } });
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();
  });
});
