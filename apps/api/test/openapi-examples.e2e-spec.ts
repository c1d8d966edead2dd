import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger';
import speakeasy from 'speakeasy';
import { createAccount, createFirstPartyClient, TestAccount } from './support/identity';
import { startDnsServer } from './support/dns-server';
import { startSmtpServer } from './support/smtp-server';
import { HttpResult, startTestApp, TestApp } from './support/test-app';

/**
 * Issue 12: the document and the server disagreed (Swagger UI's own example for "create link" was refused,
 * required fields were documented optional). Here every operation that takes a body or a required query
 * parameter is sent its documented example, as Swagger UI's "Try it out" would, and must be accepted; then
 * each required field is left out in turn and must be refused as VALIDATION_ERROR naming that field.
 * Fixture values (a real client id, a password, an id in the path) replace the example's where the
 * operation needs the caller's own things.
 */
const FORM = 'application/x-www-form-urlencoded';
const REDIRECT_URI = 'https://app.example.com/callback';

interface Documented {
  method: string;
  path: string;
  operation: OperationObject;
  body?: { schema: SchemaObject; example: Record<string, unknown>; types: string[] };
  query: ParameterObject[];
}

/** What one request needs: a fresh account, ids for the path, values of its own for the example. */
interface Prepared {
  account: TestAccount;
  path: string;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  /** A token that is not the account's (POST /oauth/*: none). */
  token?: string | null;
  /** The expected answer when it is not 200. */
  status?: number;
}

describe('documented request examples against the running server', () => {
  let t: TestApp;
  let document: OpenAPIObject;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let documented: Documented[];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    // The webhook example's host, resolved by a DNS server of the test's to a public address (the app checks it is not internal).
    dns = await startDnsServer();
    dns.as.set('crm.example.com', ['93.184.215.14']);
    // The sandbox takes the checkout an example pays for.
    t = await startTestApp({ env: { SMTP_URL: smtp.url, DNS_SERVERS: dns.address, WEBHOOKS_WORKER: 'false', BILLING: 'sandbox' } });
    document = (await t.request('GET', '/openapi.json')).body;
    const resolve = (schema: SchemaObject | ReferenceObject): SchemaObject =>
      '$ref' in schema ? (document.components?.schemas?.[schema.$ref.split('/').pop() as string] as SchemaObject) : schema;
    documented = Object.entries(document.paths).flatMap(([path, item]) =>
      (['get', 'post', 'put', 'delete'] as const).flatMap((method) => {
        const operation = item[method];
        if (!operation) return [];
        const requestBody = operation.requestBody as RequestBodyObject | undefined;
        const json = requestBody?.content['application/json'];
        const schema = json?.schema ? resolve(json.schema) : undefined;
        const query = ((operation.parameters ?? []) as ParameterObject[]).filter((p) => p.in === 'query' && p.required);
        const body =
          schema && requestBody
            ? { schema, example: (json?.example ?? schema.example) as Record<string, unknown>, types: Object.keys(requestBody.content) }
            : undefined;
        return body || query.length ? [{ method: method.toUpperCase(), path, operation, body, query }] : [];
      }),
    );
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await dns?.close();
  });

  const mailsTo = (address: string) =>
    smtp.messages
      .filter((m) => m.to.includes(address))
      .map((m) => m.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))));
  const totp = (secret: string) => speakeasy.totp({ secret, encoding: 'base32' });

  /** Fixtures of one operation, made afresh for each request (a request may revoke, delete or rename them). */
  async function prepare(key: string): Promise<Prepared> {
    const account = await createAccount(t);
    const as = (token: string) => ({ token });
    const created = async (path: string, body: unknown): Promise<string> => {
      const answer = await t.request('POST', path, { token: account.accessToken, body });
      if (answer.status !== 200) throw new Error(`fixture ${path}: ${answer.status} ${answer.text}`);
      return answer.body.data.id;
    };
    const client = { client_id: account.client.clientId, client_secret: account.client.clientSecret };
    switch (key) {
      case 'POST /oauth/token':
        return { account, path: '/oauth/token', token: null, body: { ...client, username: account.email, password: account.password } };
      case 'POST /oauth/revoke':
        return { account, path: '/oauth/revoke', token: null, body: { token: account.refreshToken, ...client } };
      case 'POST /oauth/introspect':
        return { account, path: '/oauth/introspect', token: null, body: { token: account.accessToken, ...client } };
      case 'POST /oauth/idp':
        // No identity provider is configured here: the documented outcome is a refusal of the sign-in, not of the request's shape.
        return { account, path: '/oauth/idp', token: null, body: { client_id: account.client.clientId }, status: 401 };
      case 'GET /oauth/authorize':
      case 'GET /oauth/authorize/page': {
        // The example's client and redirect URI, registered: the request then goes on to the page (302), or is the page.
        const app = await createFirstPartyClient(t, account.id, { redirectUris: [REDIRECT_URI] });
        return {
          account,
          path: key.split(' ')[1],
          token: null,
          query: { client_id: app.clientId, redirect_uri: REDIRECT_URI },
          ...(key.endsWith('page') ? {} : { status: 302 }),
        };
      }
      case 'GET /tls/ask':
        // The example's host is well formed but no verified domain of this server: refused as such, not as input.
        return { account, path: '/tls/ask', token: null, status: 404 };
      case 'POST /oauth/authorize': {
        const app = await createFirstPartyClient(t, account.id, { redirectUris: [REDIRECT_URI] });
        const query = { response_type: 'code', client_id: app.clientId, redirect_uri: REDIRECT_URI, scope: 'links:read', state: 'xyz' };
        const page = await t.request('GET', `/oauth/authorize/page?${new URLSearchParams(query)}`);
        const field = (name: string) =>
          new RegExp(`name="${name}" value="([^"]*)"`)
            .exec(page.text)?.[1]
            ?.replace(/&amp;/g, '&')
            .replace(/&quot;/g, '"');
        return {
          account,
          path: '/oauth/authorize',
          token: null,
          body: { request: field('request'), signature: field('signature'), email: account.email, password: account.password },
          status: 302,
        };
      }
      case 'GET /auth/verify-email':
      case 'POST /auth/verify-email': {
        const email = `verify-${account.id}@example.com`;
        await t.request('PUT', '/user/me/email', { token: account.accessToken, body: { email } });
        const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mailsTo(email)[0] ?? '')?.[1] ?? 'missing';
        return {
          account,
          path: '/auth/verify-email',
          token: null,
          ...(key.startsWith('GET') ? { query: { token } } : { body: { token } }),
        };
      }
      case 'PUT /user/me/email':
        return { account, path: '/user/me/email', body: { email: `changed-${account.id}@example.com`, currentPassword: account.password } };
      case 'PUT /user/me/password':
      case 'DELETE /user/me':
      case 'POST /user/me/enable-twofactor':
        return { account, path: key.split(' ')[1], body: { currentPassword: account.password } };
      case 'POST /user/me/twofactor/confirm': {
        const on = await t.request('POST', '/user/me/enable-twofactor', {
          token: account.accessToken,
          body: { enable: true, currentPassword: account.password },
        });
        return { account, path: '/user/me/twofactor/confirm', body: { code: totp(on.body.data.secret) } };
      }
      case 'GET /user/stats/{dimension}':
        return { account, path: '/user/stats/countries' };
      case 'PUT /user/link/{id}':
        return { account, path: `/user/link/${await created('/user/link', { url: 'https://example.com/first' })}` };
      case 'PUT /user/tag/{id}':
        return { account, path: `/user/tag/${await created('/user/tag', { name: 'first' })}` };
      case 'PUT /user/oauth-clients/{id}':
        return { account, path: `/user/oauth-clients/${await created('/user/oauth-clients', { name: 'first', scopes: ['links:read'] })}` };
      case 'POST /user/webhooks':
        // A webhook's link filter names the caller's own links.
        return { account, path: '/user/webhooks', body: { linkIds: [await created('/user/link', { url: 'https://example.com/first' })] } };
      case 'PUT /user/webhooks/{id}': {
        const link = await created('/user/link', { url: 'https://example.com/first' });
        const answer = await t.request('POST', '/user/webhooks', {
          token: account.accessToken,
          body: { url: 'https://crm.example.com/hooks/lnk', events: ['link.created'] },
        });
        if (answer.status !== 200) throw new Error(`fixture /user/webhooks: ${answer.status} ${answer.text}`);
        return { account, path: `/user/webhooks/${answer.body.data.id}`, body: { linkIds: [link] } };
      }
      case 'POST /user/subscription/verify': {
        const checkout = await t.request('POST', '/user/subscription/checkout', {
          token: account.accessToken,
          body: { planId: 'pro', successUrl: 'https://app.example.com/done', cancelUrl: 'https://app.example.com/' },
        });
        // Paid on the sandbox provider's page, as a person would.
        await t.request('POST', `/billing/sandbox/${checkout.body.data.sessionId}`, { raw: { body: '', contentType: FORM } });
        return { account, path: '/user/subscription/verify', body: { sessionId: checkout.body.data.sessionId } };
      }
      default:
        return { account, path: key.split(' ')[1], ...as(account.accessToken) };
    }
  }

  function send(
    key: string,
    prepared: Prepared,
    body: Record<string, unknown> | undefined,
    query: Record<string, string>,
    type = 'application/json',
  ): Promise<HttpResult> {
    const [method] = key.split(' ');
    const path = Object.keys(query).length ? `${prepared.path}?${new URLSearchParams(query)}` : prepared.path;
    const token = prepared.token === null ? undefined : (prepared.token ?? prepared.account.accessToken);
    if (body === undefined) return t.request(method, path, { token });
    if (type === FORM)
      return t.request(method, path, {
        token,
        raw: { body: new URLSearchParams(body as Record<string, string>).toString(), contentType: FORM },
      });
    return t.request(method, path, { token, body });
  }

  const exampleQuery = (operation: Documented) =>
    Object.fromEntries(operation.query.map((p) => [p.name, String(p.example ?? (p.schema as SchemaObject | undefined)?.example)]));
  const keyOf = (operation: Documented) => `${operation.method} ${operation.path}`;

  it('finds the operations to try: every body, and the required query parameters of GET /user/stats and GET /auth/verify-email', () => {
    const keys = documented.map(keyOf);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /user/link',
        'PUT /user/link/{id}',
        'POST /oauth/token',
        'GET /user/stats',
        'GET /auth/verify-email',
        'POST /auth/verify-email',
      ]),
    );
    expect(keys.length).toBeGreaterThanOrEqual(20);
  });

  it('documents an example for every request body, holding every required field', () => {
    for (const operation of documented.filter((o) => o.body)) {
      const body = operation.body as NonNullable<Documented['body']>;
      expect([keyOf(operation), typeof body.example]).toEqual([keyOf(operation), 'object']);
      for (const field of body.schema.required ?? [])
        expect([keyOf(operation), field, field in body.example]).toEqual([keyOf(operation), field, true]);
    }
    for (const operation of documented)
      for (const parameter of operation.query)
        expect([keyOf(operation), parameter.name, exampleQuery(operation)[parameter.name]]).not.toContain('undefined');
  });

  it("accepts each operation's documented example, as JSON and, where documented, form-encoded", async () => {
    const refused: string[] = [];
    for (const operation of documented) {
      for (const type of operation.body?.types ?? ['application/json']) {
        const key = keyOf(operation);
        const prepared = await prepare(key);
        const body = operation.body ? { ...operation.body.example, ...prepared.body } : undefined;
        const answer = await send(key, prepared, body, { ...exampleQuery(operation), ...prepared.query }, type);
        const expected = prepared.status ?? 200;
        if (answer.status !== expected) refused.push(`${key} (${type}) -> ${answer.status} ${answer.text.slice(0, 300)}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('refuses each required field left out: 400 VALIDATION_ERROR naming that field', async () => {
    const wrong: string[] = [];
    for (const operation of documented) {
      const key = keyOf(operation);
      const fields = [
        ...(operation.body?.schema.required ?? []).map((name) => ({ name, in: 'body' })),
        ...operation.query.map((p) => ({ name: p.name, in: 'query' })),
      ];
      for (const field of fields) {
        const prepared = await prepare(key);
        const body = operation.body ? { ...operation.body.example, ...prepared.body } : undefined;
        const query = { ...exampleQuery(operation), ...prepared.query };
        if (field.in === 'body') delete (body as Record<string, unknown>)[field.name];
        else delete query[field.name];
        const answer = await send(key, prepared, body, query);
        const names = (answer.body?.meta?.errors ?? []).map((e: { name: string }) => e.name);
        if (answer.status !== 400 || answer.body?.code !== 'VALIDATION_ERROR' || !names.includes(field.name))
          wrong.push(`${key} without ${field.name} -> ${answer.status} ${answer.text.slice(0, 300)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('takes the token request form-encoded as documented, and refuses it without grant_type the RFC 6749 way', async () => {
    const account = await createAccount(t);
    const form = (fields: Record<string, string>) =>
      t.request('POST', '/oauth/token', { raw: { body: new URLSearchParams(fields).toString(), contentType: FORM } });
    const fields = {
      grant_type: 'password',
      client_id: account.client.clientId,
      client_secret: account.client.clientSecret,
      username: account.email,
      password: account.password,
    };
    const granted = await form(fields);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ access_token: expect.stringMatching(/^at_/), token_type: expect.stringMatching(/^bearer$/i) });
    const { grant_type: _left, ...withoutGrant } = fields;
    const refused = await form(withoutGrant);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining('grant_type') });
  });
});
