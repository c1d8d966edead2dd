import { connect } from 'node:net';
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

  // Issue 15: the security headers moved from Nest's hook (on the Node response) to the Fastify reply;
  // this pins the whole set, also on the answers that never reach the service's request hook: a request
  // target Nest's adapter sends to the not-found handler from its own hook ("GET *health"), and the
  // router's own errors (a malformed URL, a parameter past maxParamLength).
  it("sends the same complete set of security headers on every kind of answer, the router's own errors included", async () => {
    const expected = {
      'content-security-policy': "default-src 'none';frame-ancestors 'none';base-uri 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const raw = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(t.baseUrl);
        const socket = connect(Number(port), hostname, () =>
          socket.end(`GET ${target} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const headersOf = (answer: string) =>
      Object.fromEntries(
        answer
          .split('\r\n\r\n')[0]
          .split('\r\n')
          .slice(1)
          .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
    const answers = await Promise.all([
      raw('/health/live'),
      raw('/user/me'),
      raw('/no/such/route'),
      raw('*health'),
      raw('/user/link/%zz'),
      raw(`/user/link/${'a'.repeat(3000)}`),
    ]);
    expect(answers.map((a) => Number(a.split(' ')[1]))).toEqual([200, 401, 404, 404, 400, 414]);
    for (const answer of answers) {
      expect(headersOf(answer)).toMatchObject(expected);
      expect(headersOf(answer)['x-powered-by']).toBeUndefined();
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
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
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
