import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SCOPES } from '@lnk/identity/domain';
import { createAccount, createPat, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

/** The MCP endpoint (docs/mcp.md), driven by the SDK's own client over real HTTP. */
describe('MCP endpoint (/mcp)', () => {
  let t: TestApp;
  let owner: TestAccount;
  const clients: Client[] = [];

  async function connect(token?: string, headers: Record<string, string> = {}): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
    });
    const client = new Client({ name: 'lnk-e2e', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  const dataOf = (result: CallToolResult) => (result.structuredContent as { data: Record<string, unknown> }).data;

  /** A raw POST of one JSON-RPC message, for what the SDK's client would never send. */
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
  const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createAccount(t);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t?.close();
  });

  it('lists the tools, each input schema derived from the DTO of its HTTP route', async () => {
    const client = await connect((await createPat(t, owner, ['links:read'])).token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'create_link',
      'delete_link',
      'find_links',
      'get_link',
      'get_link_stats',
      'list_domains',
      'list_tags',
      'update_link',
    ]);
    const create = tools.find((tool) => tool.name === 'create_link');
    // CreateLinkDto's rules as the OpenAPI document states them: url required and bounded, unknown fields closed, null allowed where
    // Nullable.
    expect(create?.inputSchema).toMatchObject({
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: { url: { type: 'string', maxLength: 2048 }, domainId: { type: ['string', 'null'] } },
    });
    expect(create?.description).toContain('links:write');
    const update = tools.find((tool) => tool.name === 'update_link');
    expect(update?.inputSchema).toMatchObject({
      required: ['id'],
      properties: { id: { type: 'string' }, title: { type: 'string', maxLength: 200 } },
    });
    expect(tools.find((tool) => tool.name === 'find_links')?.inputSchema).toMatchObject({
      properties: { limit: { type: 'integer', maximum: 100 }, expired: { enum: ['true', 'false'] } },
    });
  });

  it("creates a link with a PAT carrying links:write, and the link is then the HTTP API's", async () => {
    const client = await connect((await createPat(t, owner, ['links:write'])).token);
    const result = await call(client, 'create_link', { url: 'https://example.com/from-an-agent', title: 'Made over MCP' });
    expect(result.isError).toBeFalsy();
    const link = dataOf(result);
    expect(link).toMatchObject({ url: 'https://example.com/from-an-agent', title: 'Made over MCP' });
    expect(JSON.parse(textOf(result))).toMatchObject({ code: 'OK', data: { id: link['id'] } });
    const seen = await t.request('GET', `/user/link/${link['id']}`, { token: owner.accessToken });
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({ id: link['id'], url: 'https://example.com/from-an-agent', shortUrl: link['shortUrl'] });
  });

  // A leaked narrow token: an agent given links:read cannot write, and is told which scope it lacks.
  it('refuses a tool whose scope the token lacks, naming the scope, and changes nothing', async () => {
    const client = await connect((await createPat(t, owner, ['links:read'])).token);
    const result = await call(client, 'create_link', { url: 'https://example.com/not-allowed' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('needs the links:write scope');
    expect(result.structuredContent).toMatchObject({ status: 403, code: 'FORBIDDEN', meta: { requiredScope: 'links:write' } });
    const list = await t.request('GET', '/user/link?q=not-allowed', { token: owner.accessToken });
    expect(list.body.meta.total).toBe(0);
    // The same token still does what it may.
    expect((await call(client, 'find_links', { limit: 5 })).isError).toBeFalsy();
  });

  // Another account: its link id is not found by any tool, none of it is shown, and it does not change.
  it("answers NOT_FOUND to another account's link id and shows or changes none of it", async () => {
    const victim = await createAccount(t);
    const made = await t.request('POST', '/user/link', {
      token: victim.accessToken,
      body: { url: 'https://victim.example.com/secret-page', title: 'victim-title' },
    });
    const id = made.body.data.id as string;
    const attacker = await connect((await createPat(t, await createAccount(t), SCOPES)).token);
    for (const [name, args] of [
      ['get_link', { id }],
      ['update_link', { id, title: 'hijacked' }],
      ['delete_link', { id }],
      ['get_link_stats', { linkId: id, startDate: '2026-01-01', endDate: '2026-01-31' }],
    ] as const) {
      const result = await call(attacker, name, args);
      expect([name, result.isError, (result.structuredContent as { code: string }).code]).toEqual([name, true, 'NOT_FOUND']);
      expect(JSON.stringify(result)).not.toMatch(/victim|secret-page/);
    }
    const own = await t.request('GET', `/user/link/${id}`, { token: victim.accessToken });
    expect(own.body.data).toMatchObject({ title: 'victim-title', url: 'https://victim.example.com/secret-page' });
  });

  it("answers bad arguments with a tool error naming each field (the DTO's rules and the domain's), never a fault", async () => {
    const client = await connect((await createPat(t, owner, SCOPES)).token);
    const result = await call(client, 'create_link', { url: 'javascript:alert(1)', slug: 'docs', bogus: 1 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    const names = (result.structuredContent as { meta: { errors: { name: string }[] } }).meta.errors.map((e) => e.name).sort();
    expect(names).toEqual(['bogus', 'slug', 'url']);
    expect(textOf(result)).toMatch(/url: .*slug: |slug: .*url: /s);
    const missingId = await call(client, 'update_link', { title: 'no id' });
    expect(missingId.structuredContent).toMatchObject({ code: 'VALIDATION_ERROR', meta: { errors: [{ name: 'id' }] } });
    const wrongType = await call(client, 'find_links', { limit: 'many' });
    expect(wrongType.structuredContent).toMatchObject({ code: 'VALIDATION_ERROR', meta: { errors: [{ name: 'limit' }] } });
  });

  it('does the work of the other routes: update, find, delete, tags, domains and statistics', async () => {
    const pat = await createPat(t, owner, SCOPES);
    const client = await connect(pat.token);
    const id = dataOf(await call(client, 'create_link', { url: 'https://example.com/lifecycle' }))['id'] as string;
    expect(dataOf(await call(client, 'update_link', { id, title: 'renamed by agent' }))).toMatchObject({ id, title: 'renamed by agent' });
    const found = await call(client, 'find_links', { q: 'renamed by agent' });
    expect(found.structuredContent).toMatchObject({ meta: { total: 1 }, data: [{ id }] });
    expect(dataOf(await call(client, 'get_link', { id }))).toMatchObject({ id, title: 'renamed by agent' });
    await t.request('POST', '/user/tag', { token: owner.accessToken, body: { name: 'agent-tag' } });
    expect((await call(client, 'list_tags', { q: 'agent-tag' })).structuredContent).toMatchObject({ data: [{ name: 'agent-tag' }] });
    expect((await call(client, 'list_domains')).structuredContent).toMatchObject({ code: 'OK', meta: { total: 0 } });
    const stats = await call(client, 'get_link_stats', { linkId: id, startDate: '2026-01-01', endDate: '2026-01-07' });
    expect((stats.structuredContent as { data: unknown[] }).data).toHaveLength(7);
    expect(dataOf(await call(client, 'delete_link', { id }))).toHaveProperty('deletedAt');
    expect((await t.request('GET', `/user/link/${id}`, { token: owner.accessToken })).status).toBe(404);
  });

  it('answers 401 with WWW-Authenticate to no token and to a token that does not authenticate', async () => {
    const none = await post(TOOLS_LIST);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="lnk"');
    expect(await none.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const bad = await post(TOOLS_LIST, { authorization: 'Bearer tkn_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await expect(connect('tkn_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).rejects.toThrow();
  });

  // DNS rebinding: a page of another site reaching the service under a name it controls sends its own Origin.
  it("refuses a request from a foreign Origin and takes one from the service's own", async () => {
    const pat = await createPat(t, owner, ['links:read']);
    const foreign = await post(TOOLS_LIST, { authorization: `Bearer ${pat.token}`, origin: 'http://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const client = await connect(pat.token, { origin: new URL(t.app.get<{ publicBaseUrl: string }>('APP_CONFIG').publicBaseUrl).origin });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('bounds the body: a batch past the limit and a body that is not JSON-RPC are 4xx envelopes, GET is 405', async () => {
    const auth = { authorization: `Bearer ${(await createPat(t, owner, ['links:read'])).token}` };
    const batch = await post(
      Array.from({ length: 11 }, (_, i) => ({ ...TOOLS_LIST, id: i })),
      auth,
    );
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ code: 'VALIDATION_ERROR', meta: { errors: [{ name: 'body' }] } });
    const notJson = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    const tooLarge = await post({ ...TOOLS_LIST, params: { padding: 'x'.repeat(2 * 1024 * 1024) } }, auth);
    expect(tooLarge.status).toBe(413);
    const get = await fetch(`${t.baseUrl}/mcp`, { headers: { ...auth, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

// A flood from an agent: each JSON-RPC message spends the account's API budget, the one its HTTP requests spend.
describe('MCP endpoint (/mcp) under the API rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_API: '6/60', RATE_LIMIT_PUBLIC: '1000/60' } });
  });
  afterAll(() => t?.close());

  it('charges each message to the account and answers 429 RATE_LIMITED past it, for the HTTP API too', async () => {
    const account = await createAccount(t);
    // One request of the budget: the PAT's creation.
    const pat = await createPat(t, account, ['links:read']);
    const headers = {
      authorization: `Bearer ${pat.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const batch = Array.from({ length: 5 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }));
    const five = await fetch(`${t.baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(batch) });
    expect(five.status).toBe(200);
    expect(five.headers.get('ratelimit-remaining')).toBe('0');
    expect(await five.json()).toHaveLength(5);
    const over = await fetch(`${t.baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(batch[0]) });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((await t.request('GET', '/user/link', { token: account.accessToken })).status).toBe(429);
  });
});
