import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject, OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { SCOPES } from '@lnk/identity/domain';
import { WEBHOOK_EVENT_TYPES } from '@lnk/webhooks/domain';
import { ROUTE_RESPONSES, ROUTE_SCOPES as SCOPE_TABLE } from '../src/app-routes';
import { openApiPath, registeredRoutes } from '../src/openapi/openapi';
import { startTestApp, TestApp } from './support/test-app';

describe('OpenAPI document (/openapi.json) and UI (/docs)', () => {
  let t: TestApp;
  let document: OpenAPIObject;

  beforeAll(async () => {
    t = await startTestApp();
    const answer = await t.request('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    document = answer.body;
    // The app's start and the document's first build (every DTO's schema) take seconds; a loaded machine, several times that.
  }, 120_000);
  afterAll(() => t?.close());

  const operationOf = (method: string, path: string) =>
    document.paths[openApiPath(path)]?.[method.toLowerCase() as 'get'] as OperationObject | undefined;

  it('is OpenAPI 3 with the OAuth 2.0 flows and every scope', () => {
    expect(document.openapi).toMatch(/^3\./);
    const oauth2 = document.components?.securitySchemes?.['oauth2'] as {
      flows: { authorizationCode: { scopes: Record<string, string>; tokenUrl: string } };
    };
    // Relative: resolved against the address the document was fetched from (issue 12: absolute localhost URLs broke other host names).
    expect(oauth2.flows.authorizationCode.tokenUrl).toBe('/oauth/token');
    expect(Object.keys(oauth2.flows.authorizationCode.scopes).sort()).toEqual([...new Set(Object.values(SCOPE_TABLE))].sort());
  });

  // Issue 28: the version badge of Swagger UI showed "1", and each scope was described by its own name.
  it("carries the service's version (package.json) as info.version, and a description of what each scope grants, in both flows", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(document.info.version).toBe(manifest.version);
    const oauth2 = document.components?.securitySchemes?.['oauth2'] as unknown as {
      flows: Record<string, { scopes: Record<string, string> }>;
    };
    expect(Object.keys(oauth2.flows).sort()).toEqual(['authorizationCode', 'password']);
    for (const { scopes } of Object.values(oauth2.flows)) {
      expect(Object.keys(scopes)).toEqual([...SCOPES]);
      const undescribed = Object.entries(scopes).filter(
        ([name, description]) => typeof description !== 'string' || description.trim().length < 10 || description.includes(name),
      );
      expect(undescribed).toEqual([]);
    }
  });

  it('has every route of the app, each with its documented success answer', () => {
    const routes = registeredRoutes(t.app);
    const missing = routes.filter((r) => !operationOf(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    const undocumented = routes.map((r) => `${r.method} ${openApiPath(r.path)}`).filter((key) => !ROUTE_RESPONSES[key]);
    expect(undocumented).toEqual([]);
    const stale = Object.keys(ROUTE_RESPONSES).filter((key) => !routes.some((r) => `${r.method} ${openApiPath(r.path)}` === key));
    expect(stale).toEqual([]);
  });

  // Issue 30: a client generated from the document must know it may send Idempotency-Key, and what a replay or a reuse answers.
  it('declares Idempotency-Key on every POST that creates something, with its 409 and 422 answers and Idempotent-Replayed', () => {
    const withKey = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, OperationObject>).filter((operation) =>
        ((operation.parameters ?? []) as ParameterObject[]).some((p) => p.in === 'header' && p.name === 'Idempotency-Key'),
      ),
    );
    expect(withKey.map((operation) => operation.operationId).sort()).toEqual(
      [
        'addDomain',
        'createLink',
        'createLinks',
        'createOAuthClient',
        'createPersonalAccessToken',
        'createTag',
        'createWebhook',
        'importLinks',
        'startCheckout',
      ].sort(),
    );
    for (const operation of withKey) {
      const responses = operation.responses as Record<string, ResponseObject>;
      expect([operation.operationId, Object.keys(responses).filter((status) => ['409', '422'].includes(status))]).toEqual([
        operation.operationId,
        ['409', '422'],
      ]);
      expect([operation.operationId, Object.keys(responses['200']?.headers ?? {})]).toEqual([
        operation.operationId,
        ['Idempotent-Replayed'],
      ]);
    }
  });

  // A generated client must know which writes it can make conditional: exactly the PUTs that honour If-Match.
  it(
    'declares the ETag of single resources, If-None-Match and 304 on their GET, ' +
      'If-Match and 412 on the PUT of links, tags, OAuth clients and webhooks',
    () => {
      for (const path of ['/user/link/:id', '/user/me', '/user/oauth-clients/:id', '/user/tokens/:id', '/user/webhooks/:id']) {
        const get = operationOf('GET', path) as OperationObject;
        expect([
          path,
          Object.keys((get.responses['200'] as ResponseObject).headers ?? {}),
          Object.keys(get.responses).includes('304'),
        ]).toEqual([path, ['ETag'], true]);
        expect(((get.parameters ?? []) as ParameterObject[]).filter((p) => p.in === 'header').map((p) => p.name)).toEqual([
          'If-None-Match',
        ]);
      }
      for (const path of ['/user/link/:id', '/user/tag/:id', '/user/oauth-clients/:id', '/user/webhooks/:id']) {
        const put = operationOf('PUT', path) as OperationObject;
        expect([path, ((put.parameters ?? []) as ParameterObject[]).filter((p) => p.in === 'header').map((p) => p.name)]).toEqual([
          path,
          ['If-Match'],
        ]);
        expect([path, Object.keys((put.responses['200'] as ResponseObject).headers ?? {})]).toEqual([path, ['ETag']]);
        expect((put.responses['412'] as ResponseObject).headers).toHaveProperty('ETag');
      }
      // No other operation claims If-Match: a route that does not check it must not say it does.
      const withIfMatch = Object.values(document.paths).flatMap((item) =>
        Object.values(item as Record<string, OperationObject>).filter((operation) =>
          ((operation.parameters ?? []) as ParameterObject[]).some((p) => p.in === 'header' && p.name === 'If-Match'),
        ),
      );
      expect(withIfMatch.map((operation) => operation.operationId).sort()).toEqual([
        'updateLink',
        'updateOAuthClient',
        'updateTag',
        'updateWebhook',
      ]);
    },
  );

  it('gives every scoped route its scope as an OAuth 2.0 security requirement, and public routes none', () => {
    for (const route of registeredRoutes(t.app)) {
      const operation = operationOf(route.method, route.path);
      const scope = (SCOPE_TABLE as Record<string, string>)[`${route.method} ${route.path}`];
      if (route.isPublic) expect([route.path, operation?.security]).toEqual([route.path, []]);
      else expect([route.path, operation?.security]).toEqual([route.path, [{ oauth2: [scope] }, { bearer: [] }]]);
    }
  });

  it('describes request bodies and query parameters from the validation rules', () => {
    const create = operationOf('POST', '/user/link');
    expect(create?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateLinkDto' } } },
    });
    expect(document.components?.schemas?.['CreateLinkDto']).toMatchObject({
      type: 'object',
      properties: { url: { type: 'string', maxLength: 2048 }, tags: { type: 'array', maxItems: 50 } },
    });
    expect(document.components?.schemas?.['CheckoutRequestDto']).toMatchObject({ required: ['planId', 'successUrl', 'cancelUrl'] });
    const list = operationOf('GET', '/user/link');
    expect(list?.parameters).toEqual(
      expect.arrayContaining([
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
        { name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 200 } },
      ]),
    );
    expect(operationOf('GET', '/user/link/:id')?.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path', required: true })]),
    );
  });

  it('wraps answers in the envelope, with the error envelope for errors', () => {
    const me = operationOf('GET', '/user/me');
    expect(me?.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/GetAccountAnswer' } } },
    });
    expect(document.components?.schemas?.['GetAccountAnswer']).toMatchObject({
      required: ['status', 'code', 'message', 'data'],
      properties: { data: { $ref: '#/components/schemas/User' } },
    });
    for (const status of ['401', '403', '429', '503'])
      expect(me?.responses[status]).toMatchObject({
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      });
  });

  it('answers under /v1 too, and serves Swagger UI at /docs with a CSP of its own', async () => {
    expect((await t.request('GET', '/v1/openapi.json')).body.openapi).toBe(document.openapi);
    const ui = await fetch(`${t.baseUrl}/docs`);
    expect(ui.status).toBe(200);
    const html = await ui.text();
    expect(html).toContain('swagger-ui');
    expect(ui.headers.get('content-security-policy')).toContain("script-src 'self'");
    const script = await fetch(`${t.baseUrl}/docs/swagger-ui-init.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('lnk API');
  });

  // Issue 12: the document said what the server does not do (optional dates, no required url, 4096, JSON-only OAuth).
  it('says what the server enforces: required fields, lengths, and both content types of the OAuth endpoints', () => {
    const schemaOf = (name: string) =>
      document.components?.schemas?.[name] as { required?: string[]; properties: Record<string, { maxLength?: number }> };
    expect(schemaOf('CreateLinkDto').required).toEqual(['url']);
    expect(schemaOf('CreateLinkDto').properties['url'].maxLength).toBe(2048);
    expect(schemaOf('UpdateLinkDto').required ?? []).toEqual([]);
    expect(operationOf('PUT', '/user/link/:id')?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateLinkDto' } } },
    });
    const stats = operationOf('GET', '/user/stats')?.parameters as { name: string; required: boolean }[];
    for (const name of ['startDate', 'endDate'])
      expect(stats.find((p) => p.name === name)).toMatchObject({ required: true, example: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(stats.find((p) => p.name === 'q')?.required).toBe(false);
    for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
      expect(Object.keys((operationOf('POST', path)?.requestBody as { content: object }).content).sort()).toEqual([
        'application/json',
        'application/x-www-form-urlencoded',
      ]);
    }
    // JSON-only routes do not claim form bodies (the form guard refuses them).
    expect(Object.keys((operationOf('POST', '/user/link')?.requestBody as { content: object }).content)).toEqual(['application/json']);
    expect(operationOf('DELETE', '/user/me')?.requestBody).toMatchObject({ required: false });
  });

  it('gives every operation a summary and a description', () => {
    const bare = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, OperationObject>)
        .filter(([, operation]) => !operation.summary || !operation.description)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(bare).toEqual([]);
  });

  // Issue 12: an absolute http://localhost:<PORT> made Swagger UI's calls cross-origin from any other host name.
  it('has relative server URLs, so Swagger UI calls the origin it was opened on', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' }), expect.objectContaining({ url: '/v1' })]);
    expect(JSON.stringify(document)).not.toContain('//localhost');
    expect(JSON.stringify(document)).not.toContain(t.baseUrl);
  });

  it('describes bearer tokens as opaque, and the OAuth scheme names the redirect page to register', async () => {
    const bearer = document.components?.securitySchemes?.['bearer'] as { bearerFormat?: string; description: string };
    expect(bearer.bearerFormat).toBeUndefined();
    expect(bearer.description).toMatch(/opaque/);
    expect(bearer.description).toContain('tkn_');
    const oauth2 = document.components?.securitySchemes?.['oauth2'] as { description: string };
    expect(oauth2.description).toContain('--redirect-uri <PUBLIC_BASE_URL>/docs/oauth2-redirect.html');
    // The page named there is served, and /docs moves to /docs/, where Swagger UI computes that very redirect URI.
    const page = await fetch(`${t.baseUrl}/docs/oauth2-redirect.html`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('oauth2-redirect.js');
    expect((await fetch(`${t.baseUrl}/docs/oauth2-redirect.js`)).status).toBe(200);
    const docs = await t.request('GET', '/docs');
    expect([docs.status, docs.headers.get('location')]).toEqual([302, 'docs/']);
    expect((await t.request('GET', '/v1/docs')).headers.get('location')).toBe('docs/');
  });

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, OperationObject>).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
  const schemaOf = (name: string) => document.components?.schemas?.[name] as SchemaObject & { properties: Record<string, SchemaObject> };

  // Issue 30: operation ids were the framework's (LinksController_create), which generated clients turn into function names.
  it('gives every operation a unique operationId, a verb first in camelCase', () => {
    const ids = operations().map(({ operation }) => operation.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    const verbs =
      'get|list|create|add|update|change|set|delete|revoke|regenerate|rotate|confirm|verify|' +
      'grant|introspect|sign|start|decide|tag|import|export|send|receive|pay';
    expect(ids.filter((id) => !new RegExp(`^(${verbs})[A-Z][A-Za-z]*$`).test(id))).toEqual([]);
    expect(operations().find(({ key }) => key === 'POST /user/link')?.operation.operationId).toBe('createLink');
  });

  it('names every JSON answer schema, and the licence of the API', () => {
    const unnamed = operations().flatMap(({ key, operation }) =>
      Object.entries(operation.responses).flatMap(([status, response]) => {
        const schema = (response as ResponseObject).content?.['application/json']?.schema as SchemaObject | ReferenceObject | undefined;
        const refs = schema && ('$ref' in schema ? [schema] : (schema.oneOf ?? [schema]));
        return (refs ?? []).filter((s) => !('$ref' in s)).map(() => `${key} ${status}`);
      }),
    );
    expect(unnamed).toEqual([]);
    expect(document.info.license?.name).toEqual(expect.any(String));
  });

  it('describes every path parameter with an example, and the statistics dimension with the names it takes', () => {
    const bare = operations().flatMap(({ key, operation }) =>
      ((operation.parameters ?? []) as ParameterObject[])
        .filter((p) => p.in === 'path' && p.example === undefined)
        .map((p) => `${key} ${p.name}`),
    );
    expect(bare).toEqual([]);
    const dimension = (operationOf('GET', '/user/stats/:dimension')?.parameters as ParameterObject[]).find((p) => p.name === 'dimension');
    expect((dimension?.schema as SchemaObject).enum).toEqual([
      'referrers',
      'countries',
      'devices',
      'browsers',
      'os',
      'triggers',
      'referrer',
      'country',
      'device',
      'browser',
      'trigger',
    ]);
  });

  // Issue 27: a client generated from the document sent what the server refused, and the other way round.
  it('closes every request body the server closes, and leaves the OAuth ones open (RFC 6749 ignores unknown parameters)', () => {
    const bodies = new Set(
      operations().flatMap(({ operation }) =>
        Object.values(
          (operation.requestBody as { content?: Record<string, { schema: ReferenceObject | SchemaObject }> } | undefined)?.content ?? {},
        ).flatMap((m) => ('$ref' in m.schema ? [m.schema.$ref.split('/').pop() as string] : [])),
      ),
    );
    const open = [...bodies].filter((name) => schemaOf(name).additionalProperties !== false).sort();
    expect(open).toEqual(['AuthorizeDecisionDto', 'TokenHintRequestDto', 'TokenRequestDto']);
    expect(operationOf('GET', '/user/link')).toMatchObject({ 'x-additional-query-parameters': false });
    expect(operationOf('GET', '/oauth/authorize')).not.toHaveProperty('x-additional-query-parameters');
  });

  it('states closed sets as enums, and the rules written in prose as schema', () => {
    expect(schemaOf('CreateTokenDto').properties['scopes']).toMatchObject({ minItems: 1, items: { enum: [...SCOPES] } });
    expect(schemaOf('CreateOAuthClientDto').properties['scopes']).toMatchObject({ items: { enum: [...SCOPES] } });
    expect(schemaOf('CreateOAuthClientDto').properties['redirectUris']).toMatchObject({
      items: { format: 'uri', pattern: expect.stringContaining('localhost') },
    });
    expect(schemaOf('CreateWebhookDto').properties['events']).toMatchObject({ minItems: 1, items: { enum: [...WEBHOOK_EVENT_TYPES] } });
    expect(schemaOf('TokenRequestDto').properties['grant_type']).toMatchObject({
      enum: ['password', 'authorization_code', 'refresh_token'],
    });
    const authorize = operationOf('GET', '/oauth/authorize')?.parameters as ParameterObject[];
    expect(authorize.filter((p) => p.required).map((p) => p.name)).toEqual(['response_type', 'client_id', 'redirect_uri']);
    expect(authorize.find((p) => p.name === 'response_type')?.schema).toMatchObject({ enum: ['code'] });
    expect(schemaOf('CreateLinkDto').properties['slug']).toMatchObject({
      pattern: '^[A-Za-z0-9_-]{1,64}$',
      not: { pattern: expect.stringContaining('[aA][dD][mM][iI][nN]') },
    });
    expect(schemaOf('CreateLinkDto').properties['url']).toMatchObject({ format: 'uri', pattern: expect.stringMatching(/^\^/) });
    expect(schemaOf('BulkLinkIdsDto').properties['ids']).toMatchObject({ minItems: 1 });
    expect(schemaOf('CheckoutRequestDto').properties['successUrl']).toMatchObject({ pattern: expect.stringMatching(/^\^/) });
    expect(schemaOf('AddDomainDto').properties['name']).toMatchObject({ maxLength: 253, pattern: expect.any(String) });
    expect(schemaOf('CreateTagDto').properties['name']).toMatchObject({ pattern: '\\S' });
    const stats = operationOf('GET', '/user/stats')?.parameters as ParameterObject[];
    expect(stats.find((p) => p.name === 'startDate')?.schema).toMatchObject({ format: 'date' });
  });

  it('says which fields take null, and gives expiresAt of a token one schema', () => {
    expect(schemaOf('CreateLinkDto').properties['domainId']).toMatchObject({ type: 'string', nullable: true });
    expect(schemaOf('CreateWebhookDto').properties['linkIds']).toMatchObject({ type: 'array', nullable: true, minItems: 1 });
    expect(schemaOf('CreateTokenDto').properties['expiresAt']).toEqual({
      type: 'string',
      format: 'date-time',
      nullable: true,
      description: expect.any(String),
    });
    expect(schemaOf('CreateLinkDto').properties['title'].nullable).toBeUndefined();
  });

  it('documents the body of every status: a 302 envelope says 302, a form-encoded OAuth request gets the RFC body at 429 too', () => {
    const redirect = (operationOf('GET', '/oauth/authorize')?.responses['302'] as ResponseObject).content?.['application/json']
      ?.schema as ReferenceObject;
    expect(schemaOf(redirect.$ref.split('/').pop() as string).properties['status']).toEqual({ type: 'integer', enum: [302] });
    for (const status of ['400', '401', '429']) {
      expect((operationOf('POST', '/oauth/token')?.responses[status] as ResponseObject).content?.['application/json']?.schema).toEqual({
        oneOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, { $ref: '#/components/schemas/OAuthError' }],
      });
    }
    // Operations whose success is a redirect say why they answer no 2xx.
    const no2xx = operations().filter(({ operation }) => !Object.keys(operation.responses).some((s) => s.startsWith('2')));
    expect(no2xx.map(({ key }) => key).sort()).toEqual([
      'GET /app/auth/callback',
      'GET /app/auth/sign-in',
      'GET /oauth/authorize',
      'POST /billing/sandbox/{sessionId}',
      'POST /oauth/authorize',
    ]);
    for (const { operation } of no2xx) expect(operation.description).toMatch(/answers no 2xx/);
  });

  it('tells the items of a bulk creation apart by outcome, and gives the two-factor change one shape', () => {
    const answer = schemaOf('CreateLinksAnswer').properties['data'].items as SchemaObject;
    expect(answer.discriminator).toEqual({
      propertyName: 'outcome',
      mapping: { created: '#/components/schemas/BulkCreatedLink', refused: '#/components/schemas/BulkItemErrors' },
    });
    expect(schemaOf('SetTwoFactorAnswer').properties['data']).toEqual({ $ref: '#/components/schemas/TwoFactorChange' });
    expect(schemaOf('TwoFactorChange').oneOf).toBeUndefined();
  });
});
