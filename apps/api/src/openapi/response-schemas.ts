import type { SchemaObject } from '@nestjs/swagger';
import { ERROR_CODES } from '@lnk/shared/kernel';
import { boolean, dateTime, described, either, id, integer, list, nullable, number, object, oneOfValues, type Schema, string, strings } from './schema';

/**
 * The `data` of the success envelopes (spec section 2), as typed OpenAPI 3.0 schemas. Handlers name
 * theirs with @Responds; presenters return `Static<typeof …Schema>`. Those in DATA_SCHEMAS are named in
 * components.schemas (and referred to by $ref wherever they are used); the others are written inline.
 */

const usage = object({ used: integer, limit: integer });
const subscriptionStatus = oneOfValues('active', 'past_due', 'canceled');

export const UserSchema = object({ id, email: string, name: nullable(string), isVerified: boolean, isActive: boolean, createdAt: dateTime });
export const AccountLimitsSchema = object({ domains: usage, links: usage, tags: usage });

const TOKEN_FIELDS = { access_token: string, refresh_token: string, token_type: oneOfValues('Bearer'), expires_in: integer, scope: string };
/** The token response of RFC 6749 section 5.1. */
export const TokenResponseSchema = object(TOKEN_FIELDS);
/** Spec 2.6: the token response with the signed-in user, and the account limits for the password grant. */
export const SignInSchema = object({ ...TOKEN_FIELDS, user: object({ id, email: string, name: nullable(string) }), limits: object({ domains: usage, links: usage }) }, ['limits']);
export const IntrospectionSchema = object(
  { active: boolean, token_type: string, scope: string, client_id: string, username: string, sub: string, exp: integer, iat: integer },
  ['token_type', 'scope', 'client_id', 'username', 'sub', 'exp', 'iat'],
);

/** A personal access token as lists show it (spec 2.4); never its value but at creation. */
const PAT_FIELDS = { id, name: string, description: nullable(string), scopes: strings, lastUsedAt: nullable(dateTime), expiresAt: nullable(dateTime), createdAt: dateTime };
const { lastUsedAt: _lastUsedAt, ...withoutLastUse } = PAT_FIELDS;
export const PersonalAccessTokenSchema = object(PAT_FIELDS);
export const PersonalAccessTokenDetailSchema = object({ ...PAT_FIELDS, isActive: boolean, isExpired: boolean, updatedAt: dateTime });
export const CreatedPersonalAccessTokenSchema = object({ ...withoutLastUse, token: string });

export const OAuthClientSchema = object(
  { id, clientId: string, clientSecret: string, name: string, description: nullable(string), scopes: strings, redirectUris: strings, isActive: boolean, createdAt: dateTime },
  ['clientSecret'],
);
export const RegeneratedClientSecretSchema = object({ id, clientId: string, clientSecret: string, name: string, isActive: boolean });

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
export const LinkSchema = object({ ...LINK_FIELDS, tags: list(object({ id, name: string })) });
export const LinkListItemSchema = object(LINK_FIELDS);
export const TagSchema = object({ id, name: string, isFavorite: boolean, createdAt: dateTime, linkCount: integer });

export const DomainSchema = object({
  id,
  name: string,
  isVerified: boolean,
  createdAt: dateTime,
  dnsRecord: described(string, 'the CNAME that routes the name to the service'),
  verification: described(
    object({ type: oneOfValues('TXT'), name: described(string, '_lnk-challenge.<name>'), value: described(string, "this account's challenge for the name") }),
    'the TXT record that proves control of the name: verification needs it and the CNAME; both are re-checked while verified',
  ),
  verifiedAt: nullable(dateTime),
  verificationLostAt: described(nullable(dateTime), 'when a re-check found a record gone and took the verification away; null again once verified'),
  verificationLostReason: described(nullable(string), 'which expected record the re-check did not find'),
});
export const VerifiedDomainSchema = object({ id, name: string, isVerified: boolean, verifiedAt: nullable(dateTime) });

export const StatsRecordSchema = object({
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
});

export const PlanSchema = object({ id: string, name: string, price: number, currency: string, billingCycle: string, maxDomains: integer, maxLinks: integer, maxTags: integer });
export const SubscriptionSchema = object({
  id,
  userId: id,
  planId: string,
  planName: string,
  price: number,
  currency: string,
  status: subscriptionStatus,
  isActive: boolean,
  billingCycle: string,
  maxDomains: integer,
  maxTags: integer,
  maxLinks: integer,
});
export const CheckoutSessionSchema = object({ sessionId: string, url: string, expiresAt: dateTime });
export const VerifiedSubscriptionSchema = object({ id, status: subscriptionStatus, planId: string, startDate: dateTime });
export const WebhookReceiptSchema = object({ received: boolean, outcome: oneOfValues('applied', 'unchanged', 'ignored') });

export const HealthSchema = object({ status: string, database: string }, ['database']);
export const HomeSchema = object({ name: string, version: string, docs: string, openapi: string });

/** Account actions (spec 4.3). */
export const DeletedSchema = object({ deletedAt: dateTime });
export const ChangedEmailSchema = object({ id, email: string, isVerified: boolean, updatedAt: dateTime });
export const ChangedPasswordSchema = object({ id, updatedAt: dateTime });
export const TwoFactorChangeSchema = either(
  object({ qrCode: { ...string, pattern: '^data:image/png;base64,' }, secret: string, backupCodes: strings }),
  object({ isTwoFactorEnabled: oneOfValues(false) }),
);
export const TwoFactorConfirmedSchema = object({ isTwoFactorEnabled: oneOfValues(true) });
export const VerifiedEmailSchema = object({ id, email: string, isVerified: boolean });

export const RevokedSchema = object({ revoked: boolean });
export const AuthorizationRedirectSchema = object({ redirect_url: string });
/** The RFC 7009 answer to a form-encoded revocation: an empty object. */
export const EmptySchema = object({});

/** Named schemas, shared by several routes: components.schemas. */
export const DATA_SCHEMAS: Record<string, Schema<unknown>> = {
  User: UserSchema,
  AccountLimits: AccountLimitsSchema,
  TokenResponse: TokenResponseSchema,
  SignIn: SignInSchema,
  Introspection: IntrospectionSchema,
  PersonalAccessToken: PersonalAccessTokenSchema,
  PersonalAccessTokenDetail: PersonalAccessTokenDetailSchema,
  CreatedPersonalAccessToken: CreatedPersonalAccessTokenSchema,
  OAuthClient: OAuthClientSchema,
  Link: LinkSchema,
  LinkListItem: LinkListItemSchema,
  Tag: TagSchema,
  Domain: DomainSchema,
  StatsRecord: StatsRecordSchema,
  Plan: PlanSchema,
  Subscription: SubscriptionSchema,
  CheckoutSession: CheckoutSessionSchema,
  VerifiedSubscription: VerifiedSubscriptionSchema,
  Health: HealthSchema,
};

/** `meta` of a page of a list (spec 2.2). */
export const PAGE_META = object({ total: integer, start: integer, limit: integer });
/** `meta` of the statistics: the number of rows only. */
export const TOTAL_META = object({ total: integer });

export const SUCCESS_ENVELOPE = (data: SchemaObject | { $ref: string } | null, meta?: SchemaObject): SchemaObject => ({
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
