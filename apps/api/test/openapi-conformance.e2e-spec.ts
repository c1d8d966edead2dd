import type { OpenAPIObject, OperationObject, ParameterObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger';
import { createAccount, TestAccount } from './support/identity';
import { startDnsServer } from './support/dns-server';
import { HOSTS, Mutation, pickMutations, SchemaRequests } from './support/schema-requests';
import { HttpResult, startTestApp, TestApp } from './support/test-app';

/**
 * Issue 27: the document and the server must agree on which requests are valid (a client generated from
 * the document sent requests the server refused, and some the document calls invalid were accepted).
 * For every operation that takes a JSON body or query parameters, requests are generated from the
 * document's own schemas (support/schema-requests.ts, seeded): the valid ones must not be refused for a
 * reason the schema does not state, and the invalid ones (one keyword broken at a time) must be refused
 * with 400 VALIDATION_ERROR naming the field. Every answer is also checked against the document (test-app).
 * The documented examples are sent by openapi-examples.e2e-spec.ts.
 */
const SEED = Number(process.env['CONFORMANCE_SEED'] ?? 27);
const VALID_RUNS = Number(process.env['CONFORMANCE_VALID_RUNS'] ?? 6);
const INVALID_RUNS = Number(process.env['CONFORMANCE_INVALID_RUNS'] ?? 8);

/** A refusal the schema cannot state: it depends on what exists, on credentials, on the clock, or on two fields at once. */
interface Allowed {
  status: number;
  code?: string;
  /** Every error of meta.errors must be one of these (field, and what its message says). */
  errors?: [string, RegExp][];
  html?: true;
}

const OAUTH_CODES = [
  'INVALID_REQUEST',
  'INVALID_CLIENT',
  'INVALID_GRANT',
  'UNAUTHORIZED_CLIENT',
  'UNSUPPORTED_GRANT_TYPE',
  'INVALID_SCOPE',
  'UNAUTHORIZED',
];
/** Credentials, codes and tokens the caller does not have: an OAuth endpoint answers its RFC error. */
const OAUTH_REFUSALS: Allowed[] = OAUTH_CODES.flatMap((code) => [
  { status: 400, code },
  { status: 401, code },
]);
const PERIOD: [string, RegExp] = ['endDate', /must not be before startDate|at most 366 days/];
const LINK_STATE: [string, RegExp][] = [
  ['domainId', /verified domain of yours/],
  ['tags', /unknown tag/],
  ['slug', /already taken/],
];
const invalid = (...errors: [string, RegExp][]): Allowed => ({ status: 400, code: 'VALIDATION_ERROR', errors });
/** A list's cursor is one the server signed (no schema makes one), and it is not sent with start (two fields at once). */
const CURSOR: Allowed[] = [{ status: 400, code: 'INVALID_CURSOR' }, invalid(['start', /cannot be used together/])];

/** Explicit and narrow, by operation: the outcomes of a valid request that are not a disagreement. */
const STATE_OUTCOMES: Record<string, Allowed[]> = {
  createLink: [invalid(...LINK_STATE)],
  // hasPassword true keeps the password the link has: one without a password needs one.
  updateLink: [invalid(...LINK_STATE, ['password', /when hasPassword is true/])],
  createLinks: [invalid(['links', /quota/])],
  createTag: [invalid(['name', /already/])],
  updateTag: [invalid(['name', /already/])],
  tagLinks: [invalid(['remove', /either added or removed/], ['add', /quota/])],
  addDomain: [invalid(['name', /already|another account|of this service/])],
  // A token cannot outlive the token that makes it (here an access token of an hour); a wrong currentPassword is refused even after a fresh
  // sign-in.
  createPersonalAccessToken: [invalid(['expiresAt', /not be later than/], ['currentPassword', /not correct/])],
  createWebhook: [invalid(['linkIds', /no such link/]), { status: 403, code: 'QUOTA_EXCEEDED' }],
  updateWebhook: [invalid(['linkIds', /no such link/])],
  changeEmail: [invalid(['email', /already|registered/], ['currentPassword', /not correct/])],
  changePassword: [invalid(['currentPassword', /not correct/], ['newPassword', /differ/])],
  setTwoFactor: [invalid(['code', /one-time code/], ['enable', /already on/], ['currentPassword', /not correct/])],
  confirmTwoFactor: [invalid(['code', /enrolment|not valid|already on/])],
  deleteAccount: [invalid(['currentPassword', /not correct/])],
  getEmailVerification: [invalid(['token', /invalid, used or expired/])],
  verifyEmail: [invalid(['token', /invalid, used or expired/])],
  startCheckout: [invalid(['planId', /unknown plan|free plan|already on this plan/])],
  verifyCheckout: [
    { status: 404, code: 'NOT_FOUND' },
    { status: 400, code: 'PAYMENT_NOT_COMPLETED' },
  ],
  // A well-formed host that is neither the service's nor a verified custom domain gets no certificate.
  getCertificatePermission: [{ status: 404, code: 'NOT_FOUND' }],
  getStats: [invalid(PERIOD), ...CURSOR],
  listLinks: CURSOR,
  listTags: CURSOR,
  listDomains: CURSOR,
  listPersonalAccessTokens: CURSOR,
  listOAuthClients: CURSOR,
  listWebhooks: CURSOR,
  listWebhookDeliveries: CURSOR,
  getStatsTimeSeries: [invalid(PERIOD), { status: 404, code: 'NOT_FOUND' }],
  getTopLinks: [invalid(PERIOD), { status: 404, code: 'NOT_FOUND' }],
  getStatsByDimension: [invalid(PERIOD), { status: 404, code: 'NOT_FOUND' }],
  grantTokens: OAUTH_REFUSALS,
  revokeOAuthToken: OAUTH_REFUSALS,
  introspectToken: OAUTH_REFUSALS,
  signInWithIdentityProvider: OAUTH_REFUSALS,
  startAuthorization: OAUTH_REFUSALS,
  // The request or the signed form is not one this server issued: the page says so.
  getAuthorizationPage: [{ status: 400, html: true }],
  decideAuthorization: [{ status: 400, html: true }],
};

/**
 * Operations whose generated requests cannot succeed: each needs a secret, a code or a session that no
 * schema can give, (startCheckout) the id of a plan, which the deployment's configuration lists, or
 * (getCertificatePermission) a host this server serves, which its configuration and its verified domains name.
 */
const NEVER_ACCEPTED = new Set([
  'grantTokens',
  'signInWithIdentityProvider',
  'startAuthorization',
  'getAuthorizationPage',
  'decideAuthorization',
  'getEmailVerification',
  'verifyEmail',
  'verifyCheckout',
  'confirmTwoFactor',
  'changePassword',
  'startCheckout',
  'getCertificatePermission',
]);

/** Invalid requests the server refuses otherwise than with VALIDATION_ERROR, as a standard makes it (RFC 6749 section 5.2). */
const OTHER_REFUSALS: Record<string, Allowed> = { 'grantTokens grant_type enum': { status: 400, code: 'UNSUPPORTED_GRANT_TYPE' } };

/** Operations that change the account itself (its password, address, second factor, existence): each request on an account of its own. */
const ON_A_FRESH_ACCOUNT = new Set(['deleteAccount', 'changePassword', 'changeEmail', 'setTwoFactor', 'confirmTwoFactor']);

interface Operation {
  id: string;
  method: string;
  path: string;
  body?: SchemaObject;
  query?: SchemaObject;
  /** Unknown query parameters refused (the document's x-additional-query-parameters). */
  closedQuery: boolean;
  dimension?: SchemaObject;
}

interface Sent {
  body?: Record<string, unknown>;
  query?: Record<string, unknown>;
  dimension?: string;
}

/** A query schema as one object: each parameter a property (OpenAPI 3.0 cannot say the list is closed; the extension does). */
function queryObject(parameters: ParameterObject[], closed: boolean): SchemaObject | undefined {
  const query = parameters.filter((p) => p.in === 'query');
  if (!query.length) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema as SchemaObject])),
    required: query.filter((p) => p.required).map((p) => p.name),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

const hash = (text: string) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

describe('the OpenAPI document and the server agree on every request (schema-driven)', () => {
  let t: TestApp;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let document: OpenAPIObject;
  let requests: SchemaRequests;
  let operations: Operation[];
  let ada: TestAccount;
  const own: Record<string, string> = {};

  beforeAll(async () => {
    dns = await startDnsServer();
    // Every host of a generated URL is public, so a webhook's destination is checked by form only.
    for (const host of HOSTS) dns.as.set(host, ['93.184.215.14']);
    const plans = [
      { id: 'free', name: 'Free', price: 0, maxDomains: 1000, maxLinks: 100000, maxTags: 100000 },
      { id: 'pro', name: 'Pro', price: 9, maxDomains: 1000, maxLinks: 100000, maxTags: 100000 },
    ];
    // Checkouts are taken (the sandbox), so their requests are checked past BILLING_DISABLED.
    t = await startTestApp({
      env: { DNS_SERVERS: dns.address, WEBHOOKS_WORKER: 'false', BILLING: 'sandbox', PLANS: JSON.stringify(plans) },
    });
    document = (await t.request('GET', '/openapi.json')).body;
    requests = new SchemaRequests(document);
    ada = await createAccount(t);
    const made = async (path: string, body: unknown) => {
      const res = await t.request('POST', path, { token: ada.accessToken, body });
      if (res.status !== 200) throw new Error(`fixture ${path}: ${res.status} ${res.text}`);
      return res.body.data;
    };
    own['link'] = (await made('/user/link', { url: 'https://example.com/first' })).id;
    own['tag'] = (await made('/user/tag', { name: 'first' })).id;
    own['oauth-clients'] = (await made('/user/oauth-clients', { name: 'first', scopes: ['links:read'] })).id;
    own['webhooks'] = (await made('/user/webhooks', { url: 'https://hooks.example.com/first', events: ['link.created'] })).id;

    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      (['get', 'post', 'put', 'delete'] as const).flatMap((method) => {
        const operation = item[method] as (OperationObject & { 'x-additional-query-parameters'?: boolean }) | undefined;
        if (!operation) return [];
        const parameters = (operation.parameters ?? []) as ParameterObject[];
        const json = (operation.requestBody as RequestBodyObject | undefined)?.content['application/json']?.schema;
        const closedQuery = operation['x-additional-query-parameters'] === false;
        const query = queryObject(parameters, closedQuery);
        const body = json ? requests.resolve(json) : undefined;
        if (!body && !query) return [];
        const dimension = parameters.find((p) => p.in === 'path' && p.name === 'dimension')?.schema as SchemaObject | undefined;
        return [{ id: operation.operationId as string, method: method.toUpperCase(), path, body, query, closedQuery, dimension }];
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  /** The caller's own resource in the path (a link for /user/link/{id}, ...), the dimension as generated. */
  const pathOf = (operation: Operation, dimension: string | undefined) =>
    operation.path
      .replace('{dimension}', dimension ?? 'countries')
      .replace(/^\/user\/(link|tag|oauth-clients|webhooks)\/\{id\}/, (_all, kind: string) => `/user/${kind}/${own[kind]}`);

  async function send(operation: Operation, sent: Sent): Promise<HttpResult> {
    const account = ON_A_FRESH_ACCOUNT.has(operation.id) ? await createAccount(t) : ada;
    const query = new URLSearchParams(Object.entries(sent.query ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const path = `${pathOf(operation, sent.dimension)}${query ? `?${query}` : ''}`;
    const token = operation.path.startsWith('/oauth/') || operation.path === '/auth/verify-email' ? undefined : account.accessToken;
    return t.request(operation.method, path, { token, ...(operation.body ? { body: sent.body ?? {} } : {}) });
  }

  const errorsOf = (res: HttpResult): { name: string; error: string }[] =>
    typeof res.body === 'object' ? (res.body?.meta?.errors ?? []) : [];
  const isHtml = (res: HttpResult) => (res.headers.get('content-type') ?? '').startsWith('text/html');
  const matches = (res: HttpResult, allowed: Allowed) =>
    res.status === allowed.status &&
    (allowed.html ? isHtml(res) : res.body?.code === allowed.code) &&
    (!allowed.errors || errorsOf(res).every((e) => allowed.errors?.some(([field, message]) => e.name === field && message.test(e.error))));
  const show = (operation: Operation, sent: Sent, res: HttpResult) =>
    `${operation.method} ${operation.path} ${JSON.stringify(sent).slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;

  /** The items of a bulk creation that were refused must be refused for what exists, as one creation is. */
  const refusedItems = (operation: Operation, res: HttpResult) =>
    operation.id === 'createLinks' && res.status === 200
      ? (res.body.data as { outcome: string; errors?: { name: string; error: string }[] }[]).filter(
          (item) =>
            item.outcome === 'refused' &&
            !item.errors?.every((e) => LINK_STATE.some(([field, message]) => e.name === field && message.test(e.error))),
        )
      : [];

  it('finds the operations that take input, each with its operationId', () => {
    expect(operations.map((o) => o.id)).toEqual(
      expect.arrayContaining([
        'createLink',
        'updateLink',
        'listLinks',
        'createLinks',
        'getStats',
        'getStatsByDimension',
        'grantTokens',
        'startAuthorization',
        'createWebhook',
        'addDomain',
      ]),
    );
  });

  it(
    'accepts what the schemas call valid, refusing only for what they cannot state, ' +
      'and refuses one broken keyword with VALIDATION_ERROR naming the field',
    async () => {
      const disagreements: string[] = [];
      const accepted = new Map<string, number>();
      let sentCount = 0;
      for (const operation of operations) {
        const seed = hash(operation.id);
        const bodies = operation.body ? (requests.sample(operation.body, seed, VALID_RUNS) as Record<string, unknown>[]) : [];
        const queries = operation.query ? (requests.sample(operation.query, seed + 1, VALID_RUNS) as Record<string, unknown>[]) : [];
        const dimensions = operation.dimension ? (requests.sample(operation.dimension, seed + 2, VALID_RUNS) as string[]) : [];
        const valid: Sent[] = Array.from({ length: VALID_RUNS }, (_v, i) => ({
          body: bodies[i],
          query: queries[i],
          dimension: dimensions[i],
        }));

        for (const sent of valid) {
          const res = await send(operation, sent);
          sentCount++;
          const refusedForState = (STATE_OUTCOMES[operation.id] ?? []).some((allowed) => matches(res, allowed));
          if (res.status < 400 && !refusedItems(operation, res).length) accepted.set(operation.id, (accepted.get(operation.id) ?? 0) + 1);
          else if (!refusedForState)
            disagreements.push(
              'valid, refused: ' +
                `${show(operation, sent, res)}` +
                `${refusedItems(operation, res).length ? ` (items: ${JSON.stringify(refusedItems(operation, res))})` : ''}`,
            );
        }

        const base = valid[0];
        type Broken = Mutation<Sent> & { where: string };
        const broken: Broken[] = [
          ...(operation.body
            ? requests
                .mutations(operation.body, base.body ?? {}, seed)
                .map((m) => ({ ...m, request: { ...base, body: m.request }, where: 'body' }))
            : []),
          ...(operation.query
            ? requests
                .mutations(operation.query, base.query ?? {}, seed, true)
                .map((m) => ({ ...m, request: { ...base, query: m.request }, where: 'query' }))
            : []),
        ];
        for (const mutation of pickMutations<Sent, Broken>(broken, seed, INVALID_RUNS)) {
          const res = await send(operation, mutation.request);
          sentCount++;
          const other = OTHER_REFUSALS[`${operation.id} ${mutation.field} ${mutation.kind}`];
          const names = errorsOf(res).map((e) => e.name);
          const named = names.some((name) => name === mutation.field || name.startsWith(`${mutation.field}.`));
          const refused = other ? matches(res, other) : res.status === 400 && res.body?.code === 'VALIDATION_ERROR' && named;
          if (!refused)
            disagreements.push(
              `invalid (${mutation.where} ${mutation.field}: ${mutation.kind}), not ` +
                `refused naming it: ${show(operation, mutation.request, res)}`,
            );
        }

        // A path parameter outside its enum names no resource: 404, listing what the path takes.
        if (operation.dimension) {
          const res = await send(operation, { ...base, dimension: 'planets' });
          sentCount++;
          if (res.status !== 404 || res.body?.code !== 'NOT_FOUND' || !res.body?.meta?.dimensions)
            disagreements.push(`unknown dimension: ${show(operation, base, res)}`);
        }
      }
      expect(disagreements).toEqual([]);
      // Every operation took some of what the schemas call valid, but those that need a secret no schema gives.
      const neverAccepted = operations
        .filter((o) => !accepted.has(o.id))
        .map((o) => o.id)
        .sort();
      expect(neverAccepted).toEqual([...NEVER_ACCEPTED].filter((id) => operations.some((o) => o.id === id)).sort());
      expect(sentCount).toBeGreaterThan(300);
    },
    240_000,
  );
});
