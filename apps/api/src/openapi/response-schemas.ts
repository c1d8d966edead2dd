import type { SchemaObject } from '@nestjs/swagger';
import { ERROR_CODES } from '@lnk/shared/kernel';

/**
 * The `data` of every route's success envelope (spec section 2), as OpenAPI 3.0 schemas. Objects are
 * closed (`additionalProperties: false`): the e2e suite validates every real response against these,
 * so a field added to a presenter without its schema fails a test.
 */
const string: SchemaObject = { type: 'string' };
const id: SchemaObject = { type: 'string', description: '24 hex characters' };
const dateTime: SchemaObject = { type: 'string', format: 'date-time' };
const integer: SchemaObject = { type: 'integer' };
const boolean: SchemaObject = { type: 'boolean' };
const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });
const strings: SchemaObject = { type: 'array', items: string };
const list = (items: SchemaObject | { $ref: string }): SchemaObject => ({ type: 'array', items });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A closed object: every listed property required unless named in `optional`. */
function object(properties: Record<string, SchemaObject | { $ref: string }>, optional: string[] = []): SchemaObject {
  return { type: 'object', additionalProperties: false, properties, required: Object.keys(properties).filter((k) => !optional.includes(k)) };
}

const usage = object({ used: integer, limit: integer });

/** A personal access token as lists show it (spec 2.4); never its value but at creation. */
const PAT_FIELDS = { id, name: string, description: nullable(string), scopes: strings, lastUsedAt: nullable(dateTime), expiresAt: nullable(dateTime), createdAt: dateTime };

const { lastUsedAt: _lastUsedAt, ...withoutLastUse } = PAT_FIELDS;

/** What a link shows in the list; its detail adds its tags (spec 2.10). */
const LINK_FIELDS = {
  id,
  title: nullable(string),
  slug: string,
  url: string,
  shortUrl: string,
  description: nullable(string),
  status: boolean,
  domainId: nullable(string),
  hasPassword: boolean,
  createdAt: dateTime,
  clicks: integer,
  updatedAt: dateTime,
};

/** Named schemas, shared by several routes: components.schemas. */
export const DATA_SCHEMAS: Record<string, SchemaObject> = {
  User: object({ id, email: string, name: nullable(string), isVerified: boolean, isActive: boolean, createdAt: dateTime }),
  AccountLimits: object({ domains: usage, links: usage, tags: usage }),
  TokenResponse: object({ access_token: string, refresh_token: string, token_type: { type: 'string', enum: ['Bearer'] }, expires_in: integer, scope: string }),
  SignIn: object(
    {
      access_token: string,
      refresh_token: string,
      token_type: { type: 'string', enum: ['Bearer'] },
      expires_in: integer,
      scope: string,
      user: object({ id, email: string, name: nullable(string) }),
      limits: object({ domains: usage, links: usage }),
    },
    ['limits'],
  ),
  Introspection: object(
    { active: boolean, token_type: string, scope: string, client_id: string, username: string, sub: string, exp: integer, iat: integer },
    ['token_type', 'scope', 'client_id', 'username', 'sub', 'exp', 'iat'],
  ),
  PersonalAccessToken: object(PAT_FIELDS),
  PersonalAccessTokenDetail: object({ ...PAT_FIELDS, isActive: boolean, isExpired: boolean, updatedAt: dateTime }),
  CreatedPersonalAccessToken: object({ ...withoutLastUse, token: string }),
  OAuthClient: object(
    { id, clientId: string, clientSecret: string, name: string, description: nullable(string), scopes: strings, redirectUris: strings, isActive: boolean, createdAt: dateTime },
    ['clientSecret'],
  ),
  Link: object({ ...LINK_FIELDS, tags: list(object({ id, name: string })) }),
  LinkListItem: object(LINK_FIELDS),
  Tag: object({ id, name: string, isFavorite: boolean, createdAt: dateTime, linkCount: integer }),
  Domain: object({
    id,
    name: string,
    isVerified: boolean,
    createdAt: dateTime,
    dnsRecord: { ...string, description: 'the CNAME that routes the name to the service' },
    verification: {
      ...object({ type: { type: 'string', enum: ['TXT'] }, name: { ...string, description: '_lnk-challenge.<name>' }, value: { ...string, description: "this account's challenge for the name" } }),
      description: 'the TXT record that proves control of the name: verification needs it and the CNAME; both are re-checked while verified',
    },
    verifiedAt: nullable(dateTime),
    verificationLostAt: { ...nullable(dateTime), description: 'when a re-check found a record gone and took the verification away; null again once verified' },
    verificationLostReason: { ...nullable(string), description: 'which expected record the re-check did not find' },
  }),
  StatsRecord: object({
    id: string,
    date: dateTime,
    userId: id,
    linkId: id,
    linkName: string,
    domainId: nullable(string),
    domainName: string,
    utmSource: string,
    utmMedium: string,
    utmCampaign: string,
    visits: integer,
    passwordPassed: integer,
    passwordFailed: integer,
  }),
  Plan: object({ id: string, name: string, price: { type: 'number' }, currency: string, billingCycle: string, maxDomains: integer, maxLinks: integer, maxTags: integer }),
  Subscription: object({
    id,
    userId: id,
    planId: string,
    planName: string,
    price: { type: 'number' },
    currency: string,
    status: { type: 'string', enum: ['active', 'past_due', 'canceled'] },
    isActive: boolean,
    billingCycle: string,
    maxDomains: integer,
    maxTags: integer,
    maxLinks: integer,
  }),
  CheckoutSession: object({ sessionId: string, url: string, expiresAt: dateTime }),
  VerifiedSubscription: object({ id, status: { type: 'string', enum: ['active', 'past_due', 'canceled'] }, planId: string, startDate: dateTime }),
  Health: object({ status: string, database: string }, ['database']),
};

const pageMeta = object({ total: integer, start: integer, limit: integer });
const deleted = object({ deletedAt: dateTime });

export interface RouteResponse {
  /** The schema of `data`; null: the envelope has no data. */
  data: SchemaObject | { $ref: string } | null;
  meta?: SchemaObject;
  /** Not JSON in the envelope: the content types the route answers with. */
  raw?: Record<string, SchemaObject>;
  /** Success statuses other than 200. */
  status?: number;
  /** Error statuses of this route beyond those its kind implies, and whether they are JSON envelopes or pages. */
  errors?: Record<number, 'json' | 'html' | 'html or json'>;
  /** A sensitive account action: 403 may also be REAUTHENTICATION_REQUIRED (no recent sign-in, no currentPassword). */
  reauthentication?: true;
  /** Also answers an HTML page (text/html) when the request's Accept ranks text/html above JSON (a browser). */
  page?: true;
  /** Also answers a redirect (302, Location header): when it does. */
  redirect?: string;
}

/** Every route's success answer, by `METHOD /path` as Nest registers it. A test checks none is missing. */
export const ROUTE_RESPONSES: Record<string, RouteResponse> = {
  'GET /': { data: object({ name: string, version: string, docs: string, openapi: string }), page: true, redirect: "on SHORT_BASE_URL's host, when it is not PUBLIC_BASE_URL's, to NOT_FOUND_REDIRECT_URL if set", errors: { 404: 'html' } },
  'GET /health': { data: ref('Health') },
  'GET /health/live': { data: ref('Health') },
  'GET /health/ready': { data: ref('Health') },
  'GET /metrics': { data: null, raw: { 'text/plain': string }, errors: { 401: 'json' } },
  'POST /oauth/token': { data: ref('SignIn'), errors: { 401: 'json', 403: 'json' } },
  'POST /oauth/revoke': { data: object({ revoked: boolean }), errors: { 401: 'json' } },
  'POST /oauth/introspect': { data: ref('Introspection'), errors: { 401: 'json' } },
  'POST /oauth/idp': { data: ref('SignIn'), errors: { 401: 'json', 403: 'json' } },
  'GET /oauth/authorize': { data: object({ redirect_url: string }), status: 302 },
  'GET /oauth/authorize/page': { data: null, raw: { 'text/html': string }, errors: { 400: 'html or json' } },
  'POST /oauth/authorize': { data: null, status: 302, errors: { 400: 'html or json', 401: 'html', 429: 'html' } },
  'GET /auth/verify-email': { data: object({ id, email: string, isVerified: boolean }), page: true, errors: { 400: 'html or json' } },
  'GET /user/tokens': { data: list(ref('PersonalAccessToken')), meta: pageMeta },
  'POST /user/tokens': { data: ref('CreatedPersonalAccessToken') },
  'GET /user/tokens/{id}': { data: ref('PersonalAccessTokenDetail') },
  'DELETE /user/tokens/{id}': { data: null },
  'GET /user/oauth-clients': { data: list(ref('OAuthClient')), meta: pageMeta },
  'POST /user/oauth-clients': { data: ref('OAuthClient') },
  'GET /user/oauth-clients/{id}': { data: ref('OAuthClient') },
  'PUT /user/oauth-clients/{id}': { data: ref('OAuthClient') },
  'DELETE /user/oauth-clients/{id}': { data: null },
  'POST /user/oauth-clients/{id}/regenerate-secret': { data: object({ id, clientId: string, clientSecret: string, name: string, isActive: boolean }) },
  'GET /user/me': { data: ref('User') },
  'DELETE /user/me': { data: deleted, reauthentication: true },
  'PUT /user/me/email': { data: object({ id, email: string, isVerified: boolean, updatedAt: dateTime }), reauthentication: true },
  'PUT /user/me/password': { data: object({ id, updatedAt: dateTime }) },
  'POST /user/me/enable-twofactor': {
    data: { oneOf: [object({ qrCode: { type: 'string', pattern: '^data:image/png;base64,' }, secret: string, backupCodes: strings }), object({ isTwoFactorEnabled: { type: 'boolean', enum: [false] } })] },
    reauthentication: true,
  },
  'POST /user/me/twofactor/confirm': { data: object({ isTwoFactorEnabled: { type: 'boolean', enum: [true] } }) },
  'GET /user/me/limits': { data: ref('AccountLimits') },
  'GET /user/link': { data: list(ref('LinkListItem')), meta: pageMeta },
  'POST /user/link': { data: ref('Link') },
  'GET /user/link/{id}': { data: ref('Link') },
  'PUT /user/link/{id}': { data: ref('Link') },
  'DELETE /user/link/{id}': { data: deleted },
  'GET /user/link/{id}/qr': { data: null, raw: { 'image/png': { type: 'string', format: 'binary' }, 'image/svg+xml': string } },
  'GET /user/tag': { data: list(ref('Tag')), meta: pageMeta },
  'POST /user/tag': { data: ref('Tag') },
  'GET /user/tag/favorite': { data: list(ref('Tag')) },
  'PUT /user/tag/{id}': { data: ref('Tag') },
  'DELETE /user/tag/{id}': { data: null },
  'GET /user/domain': { data: list(ref('Domain')), meta: pageMeta },
  'POST /user/domain': { data: ref('Domain') },
  'POST /user/domain/{id}/verify': { data: object({ id, name: string, isVerified: boolean, verifiedAt: nullable(dateTime) }) },
  'DELETE /user/domain/{id}': { data: null },
  'GET /user/stats': { data: list(ref('StatsRecord')), meta: object({ total: integer }) },
  'GET /user/plans': { data: list(ref('Plan')) },
  'GET /user/subscription/current': { data: ref('Subscription') },
  'POST /user/subscription/checkout': { data: ref('CheckoutSession') },
  'POST /user/subscription/verify': { data: ref('VerifiedSubscription') },
  'POST /billing/stripe/webhook': { data: object({ received: boolean, outcome: { type: 'string', enum: ['applied', 'unchanged', 'ignored'] } }), errors: { 400: 'json', 404: 'json' } },
  'GET /billing/sandbox/{sessionId}': { data: null, raw: { 'text/html': string }, errors: { 404: 'html', 410: 'html' } },
  'POST /billing/sandbox/{sessionId}': { data: null, status: 303, errors: { 404: 'html', 410: 'html' } },
};

export const SUCCESS_ENVELOPE = (data: RouteResponse['data'], meta?: SchemaObject): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  required: ['status', 'code', 'message', ...(data ? ['data'] : []), ...(meta ? ['meta'] : [])],
  properties: {
    status: { type: 'integer', enum: [200] },
    code: { type: 'string', enum: ['OK'] },
    message: string,
    ...(data ? { data } : {}),
    ...(meta ? { meta } : {}),
  },
});

export const ERROR_ENVELOPE: SchemaObject = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'code', 'message'],
  properties: {
    status: integer,
    code: { type: 'string', enum: [...ERROR_CODES, 'BAD_REQUEST'] },
    message: string,
    meta: {
      type: 'object',
      properties: { errors: list(object({ name: string, error: string })) },
    },
  },
};
