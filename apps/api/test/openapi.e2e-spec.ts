import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';
import { SCOPE_TABLE } from '../src/auth/scope-table';
import { openApiPath, registeredRoutes } from '../src/openapi/openapi';
import { ROUTE_RESPONSES } from '../src/openapi/response-schemas';
import { startTestApp, TestApp } from './support/test-app';

describe('OpenAPI document (/openapi.json) and UI (/docs)', () => {
  let t: TestApp;
  let document: OpenAPIObject;

  beforeAll(async () => {
    t = await startTestApp();
    const answer = await t.request('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    document = answer.body;
  });
  afterAll(() => t?.close());

  const operationOf = (method: string, path: string) => document.paths[openApiPath(path)]?.[method.toLowerCase() as 'get'] as OperationObject | undefined;

  it('is OpenAPI 3 with the OAuth 2.0 flows and every scope', () => {
    expect(document.openapi).toMatch(/^3\./);
    const oauth2 = document.components?.securitySchemes?.['oauth2'] as { flows: { authorizationCode: { scopes: Record<string, string>; tokenUrl: string } } };
    expect(oauth2.flows.authorizationCode.tokenUrl).toBe(`${t.baseUrl}/oauth/token`);
    expect(Object.keys(oauth2.flows.authorizationCode.scopes).sort()).toEqual([...new Set(Object.values(SCOPE_TABLE))].sort());
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

  it("gives every scoped route its scope as an OAuth 2.0 security requirement, and public routes none", () => {
    for (const route of registeredRoutes(t.app)) {
      const operation = operationOf(route.method, route.path);
      const scope = (SCOPE_TABLE as Record<string, string>)[`${route.method} ${route.path}`];
      if (route.isPublic) expect([route.path, operation?.security]).toEqual([route.path, []]);
      else expect([route.path, operation?.security]).toEqual([route.path, [{ oauth2: [scope] }, { bearer: [] }]]);
    }
  });

  it('describes request bodies and query parameters from the validation rules', () => {
    const create = operationOf('POST', '/user/link');
    expect(create?.requestBody).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/LinkFieldsDto' } } } });
    expect(document.components?.schemas?.['LinkFieldsDto']).toMatchObject({ type: 'object', properties: { url: { type: 'string', maxLength: 4096 }, tags: { type: 'array', maxItems: 50 } } });
    expect(document.components?.schemas?.['CheckoutRequestDto']).toMatchObject({ required: ['planId', 'successUrl', 'cancelUrl'] });
    const list = operationOf('GET', '/user/link');
    expect(list?.parameters).toEqual(
      expect.arrayContaining([
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
        { name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 200 } },
      ]),
    );
    expect(operationOf('GET', '/user/link/:id')?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path', required: true })]));
  });

  it('wraps answers in the envelope, with the error envelope for errors', () => {
    const me = operationOf('GET', '/user/me');
    expect(me?.responses['200']).toMatchObject({ content: { 'application/json': { schema: { required: ['status', 'code', 'message', 'data'], properties: { data: { $ref: '#/components/schemas/User' } } } } } });
    for (const status of ['401', '403', '429', '503']) expect(me?.responses[status]).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } });
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
});
