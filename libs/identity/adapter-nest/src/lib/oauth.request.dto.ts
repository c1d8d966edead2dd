import { IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { GRANT_TYPES, PKCE_CHALLENGE } from '@lnk/identity/domain';
import { IgnoresUnknownFields, Omittable } from '@lnk/shared/http';

const S = 4096;

/** Every parameter a token request may carry (RFC 6749, RFC 7636, plus `otp` for two-factor accounts). */
@JSONSchema({
  description:
    'grant_type `password`: client_id (and client_secret for a confidential client: one without it ' +
    'is refused with invalid_client), username, password, optional scope and otp. ' +
    '`authorization_code`: code, redirect_uri, client_id, client_secret or ' +
    'code_verifier. `refresh_token`: refresh_token, client_id (and client_secret). ' +
    'The client may authenticate with HTTP Basic instead of client_id/client_secret. Unknown parameters are ignored (RFC 6749).',
  example: {
    grant_type: 'password',
    client_id: 'cli_4f0c2d9a8b7e',
    client_secret: 'cs_secret_of_the_client',
    username: 'ada@example.com',
    password: 'correct horse battery',
    scope: 'links:read links:write',
  },
})
@IgnoresUnknownFields()
export class TokenRequestDto {
  // Documented, not checked here: another grant is the token endpoint's unsupported_grant_type (RFC 6749 section 5.2), not a validation
  // error.
  @JSONSchema({ enum: [...GRANT_TYPES] })
  @IsString()
  @MaxLength(64)
  grant_type!: string;
  @Omittable() @IsString() @MaxLength(256) client_id?: string;
  @Omittable() @IsString() @MaxLength(256) client_secret?: string;
  @Omittable() @IsString() @MaxLength(320) username?: string;
  @Omittable() @IsString() @MaxLength(1024) password?: string;
  @Omittable() @IsString() @MaxLength(1024) scope?: string;
  @Omittable() @IsString() @MaxLength(64) otp?: string;
  @Omittable() @IsString() @MaxLength(S) code?: string;
  @Omittable() @IsString() @MaxLength(S) redirect_uri?: string;
  @Omittable() @IsString() @MaxLength(256) code_verifier?: string;
  @Omittable() @IsString() @MaxLength(S) refresh_token?: string;
}

/**
 * A revocation (RFC 7009 section 2.1) and an introspection (RFC 7662 section 2.1) take the same parameters: a token, a hint of its kind,
 * and the client's credentials.
 */
@JSONSchema({
  example: {
    token: 'rt_9d8c7b6a5f4e',
    token_type_hint: 'refresh_token',
    client_id: 'cli_4f0c2d9a8b7e',
    client_secret: 'cs_secret_of_the_client',
  },
})
@IgnoresUnknownFields()
export class TokenHintRequestDto {
  @IsString() @MaxLength(S) token!: string;
  @Omittable() @IsIn(['access_token', 'refresh_token']) token_type_hint?: string;
  @Omittable() @IsString() @MaxLength(256) client_id?: string;
  @Omittable() @IsString() @MaxLength(256) client_secret?: string;
}

@JSONSchema({
  description: 'token: an ID token of the configured identity provider.',
  example: { token: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl', client_id: 'cli_4f0c2d9a8b7e' },
})
export class IdpRequestDto {
  @IsString() @MaxLength(16384) token!: string;
  @IsString() @MaxLength(256) client_id!: string;
  /** The current one-time code (or a backup code), for accounts with two-factor sign-in on. */
  @Omittable() @IsString() @MaxLength(64) otp?: string;
}

/**
 * An authorization request (RFC 6749 section 4.1.1, RFC 7636 section 4.3). The client and its redirect URI
 * are looked up by the use case; what a request must hold to be one is checked here, so a malformed one is
 * told which parameters are wrong, all at once.
 */
@IgnoresUnknownFields()
export class AuthorizeQueryDto {
  @JSONSchema({ example: 'code' })
  @IsIn(['code'])
  response_type!: 'code';
  @JSONSchema({ description: 'A client registered with this service.', example: 'cli_4f0c2d9a8b7e' })
  @IsString()
  @MaxLength(256)
  client_id!: string;
  @JSONSchema({ description: "One of the client's registered redirect URIs, exactly.", example: 'https://app.example.com/callback' })
  @IsString()
  @MaxLength(S)
  redirect_uri!: string;
  @JSONSchema({ description: "Space-separated scopes, within the client's; left out: all of the client's.", example: 'links:read' })
  @Omittable()
  @IsString()
  @MaxLength(1024)
  scope?: string;
  @JSONSchema({ description: 'Given back with the code, for the client to match its request.', example: 'af0ifjsldkj' })
  @Omittable()
  @IsString()
  @MaxLength(1024)
  state?: string;
  @JSONSchema({ description: 'PKCE (RFC 7636): the base64url SHA-256 digest of the code verifier; required for a public client.' })
  @Omittable()
  @IsString()
  @Matches(PKCE_CHALLENGE, { message: '$property must be a base64url SHA-256 digest (43 characters)' })
  code_challenge?: string;
  @Omittable() @IsIn(['S256']) code_challenge_method?: 'S256';
}

/** What the authorization page posts back. */
@JSONSchema({
  description: 'Posted by the authorization page (GET /oauth/authorize/page) as a form; `request` and `signature` come from that page.',
  example: {
    request: 'eyJjbGllbnRJZCI6ImNsaV80ZjBjIn0',
    signature: 'c2lnbmF0dXJl',
    decision: 'approve',
    email: 'ada@example.com',
    password: 'correct horse battery',
  },
})
@IgnoresUnknownFields()
export class AuthorizeDecisionDto {
  @IsString() @MaxLength(8192) request!: string;
  @IsString() @MaxLength(128) signature!: string;
  @IsIn(['approve', 'deny']) decision!: 'approve' | 'deny';
  @Omittable() @IsString() @MaxLength(320) email?: string;
  @Omittable() @IsString() @MaxLength(1024) password?: string;
  @Omittable() @IsString() @MaxLength(64) otp?: string;
}
