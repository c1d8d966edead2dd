import { Clock, IdGenerator, RateLimitedError, ValidationError } from '@lnk/shared/kernel';
import { OAuthClient } from '../model/oauth-client.entity';
import { OAuthError, TwoFactorRequiredError } from '../model/oauth-error';
import { User } from '../model/user.entity';
import { Scope } from '../model/scope';
import { AuthorizationCode, TOKEN_BYTES, TOKEN_PREFIX } from '../model/tokens';
import { PkceVerifier } from '../ports/pkce-verifier';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { AuthorizationCodeRepository, OAuthTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';
import { ClientAuthenticator, grantScopes } from './client-authenticator';
import { CredentialsChecker } from './credentials-checker';
import { IssuedTokens, TokenIssuer } from './token-issuer';

export const AUTHORIZATION_CODE_SECONDS = 60;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export interface AuthorizationRequestParams {
  responseType?: string;
  clientId?: string;
  redirectUri?: string;
  scope?: string;
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: Scope[];
  state: string | null;
  codeChallenge: string | null;
}

/**
 * Checks an authorization request (RFC 6749 section 4.1.1, RFC 7636). Every failure is an error for the
 * caller, never a redirect: an unchecked redirect URI would be an open redirector.
 */
export class ValidateAuthorizationRequestUseCase {
  constructor(private readonly clients: ClientAuthenticator) {}

  async execute(params: AuthorizationRequestParams): Promise<AuthorizationRequest> {
    if (params.responseType !== 'code') throw new OAuthError('invalid_request', 'response_type must be "code"');
    if (!params.clientId) throw new OAuthError('invalid_request', 'client_id is required');
    let client: OAuthClient;
    try {
      client = await this.clients.authenticate(params.clientId, undefined, { mustAuthenticate: false });
    } catch {
      throw new OAuthError('invalid_request', 'Unknown or inactive client');
    }
    if (!params.redirectUri || !client.redirectUris.includes(params.redirectUri)) {
      throw new OAuthError('invalid_request', 'redirect_uri is not registered for this client');
    }
    const scopes = grantScopes(params.scope, client.scopes);
    let codeChallenge: string | null = null;
    if (params.codeChallenge !== undefined || params.codeChallengeMethod !== undefined) {
      if (params.codeChallengeMethod !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
      if (!params.codeChallenge || !PKCE_CHALLENGE.test(params.codeChallenge)) throw new OAuthError('invalid_request', 'code_challenge must be a base64url SHA-256 digest');
      codeChallenge = params.codeChallenge;
    }
    if (!codeChallenge && !client.isConfidential) throw new OAuthError('invalid_request', 'A public client must use PKCE (code_challenge with S256)');
    if (params.state !== undefined && params.state.length > 1024) throw new OAuthError('invalid_request', 'state is too long');
    return { client, redirectUri: params.redirectUri, scopes, state: params.state ?? null, codeChallenge };
  }
}

function redirectTo(base: string, params: Record<string, string | null>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return url.toString();
}

export interface AuthorizationDecision {
  request: AuthorizationRequestParams;
  decision: 'approve' | 'deny';
  email?: string;
  password?: string;
  otp?: string;
  ip: string;
}

/** Why a sign-in on the authorization page did not go through: the page shows it and asks again. */
export type SignInRefusal = OAuthError | TwoFactorRequiredError | ValidationError | RateLimitedError;

export type AuthorizationOutcome =
  /** To the client: a code, or access_denied. */
  | { kind: 'redirect'; redirectUrl: string }
  /** The request itself fails its checks: no redirect to a URI that may not be the client's. */
  | { kind: 'invalid_request'; error: OAuthError }
  /** The request is sound but the sign-in was refused: the page again, for the same request. */
  | { kind: 'sign_in_refused'; request: AuthorizationRequest; error: SignInRefusal };

function isSignInRefusal(error: unknown): error is SignInRefusal {
  return error instanceof OAuthError || error instanceof TwoFactorRequiredError || error instanceof ValidationError || error instanceof RateLimitedError;
}

/**
 * The resource owner's answer on the authorization page: a redirect carrying a code, or access_denied.
 * The request is checked once, here, and the outcome carries the checked request for the page to show again.
 */
export class DecideAuthorizationUseCase {
  constructor(
    private readonly validate: ValidateAuthorizationRequestUseCase,
    private readonly credentials: CredentialsChecker,
    private readonly codes: AuthorizationCodeRepository,
    private readonly secrets: SecretGenerator,
    private readonly hasher: SecretHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    /** This server's issuer identifier, sent as `iss` so a client can tell which server answered (RFC 9207). */
    private readonly issuer: string,
  ) {}

  async execute(decision: AuthorizationDecision): Promise<AuthorizationOutcome> {
    let request: AuthorizationRequest;
    try {
      request = await this.validate.execute(decision.request);
    } catch (error) {
      if (error instanceof OAuthError) return { kind: 'invalid_request', error };
      throw error;
    }
    if (decision.decision === 'deny') {
      return { kind: 'redirect', redirectUrl: redirectTo(request.redirectUri, { error: 'access_denied', state: request.state, iss: this.issuer }) };
    }
    let user: User;
    try {
      user = await this.credentials.check({ email: decision.email, password: decision.password, otp: decision.otp, ip: decision.ip });
    } catch (error) {
      if (isSignInRefusal(error)) return { kind: 'sign_in_refused', request, error };
      throw error;
    }
    const code = TOKEN_PREFIX.code + this.secrets.generate(TOKEN_BYTES);
    const now = this.clock.now();
    await this.codes.insert(
      new AuthorizationCode({
        id: this.ids.next(),
        codeHash: this.hasher.hash(code),
        clientId: request.client.id,
        userId: user.id,
        redirectUri: request.redirectUri,
        scopes: request.scopes,
        codeChallenge: request.codeChallenge,
        codeChallengeMethod: request.codeChallenge ? 'S256' : null,
        expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_SECONDS * 1000),
        consumedAt: null,
        createdAt: now,
      }),
    );
    return { kind: 'redirect', redirectUrl: redirectTo(request.redirectUri, { code, state: request.state, iss: this.issuer }) };
  }
}

export interface AuthorizationCodeGrantCommand {
  code?: string;
  redirectUri?: string;
  clientId?: string;
  clientSecret?: string;
  codeVerifier?: string;
}

/**
 * Exchanges an authorization code (RFC 6749 section 4.1.3) once. A confidential client authenticates;
 * PKCE is checked when the code was made with a challenge, required for a public client, and a verifier
 * for a code made without one is refused. A code used twice revokes every token issued from it.
 */
export class AuthorizationCodeGrantUseCase {
  constructor(
    private readonly clients: ClientAuthenticator,
    private readonly codes: AuthorizationCodeRepository,
    private readonly tokens: OAuthTokenRepository,
    private readonly users: UserRepository,
    private readonly hasher: SecretHasher,
    private readonly pkce: PkceVerifier,
    private readonly issuer: TokenIssuer,
    private readonly revocations: RevocationListener,
    private readonly clock: Clock,
  ) {}

  async execute(command: AuthorizationCodeGrantCommand): Promise<{ tokens: IssuedTokens; user: User }> {
    const client = await this.clients.authenticate(command.clientId, command.clientSecret, { mustAuthenticate: true });
    if (!command.code || !command.redirectUri) throw new OAuthError('invalid_request', 'code and redirect_uri are required');
    const invalid = (why = 'The authorization code is invalid, expired or used') => new OAuthError('invalid_grant', why);
    const stored = command.code.startsWith(TOKEN_PREFIX.code) ? await this.codes.findByHash(this.hasher.hash(command.code)) : null;
    if (!stored || stored.props.clientId !== client.id) throw invalid();
    const now = this.clock.now();
    const replay = async () => {
      await this.tokens.revokeIssuedByCode(stored.props.id, now);
      this.revocations.tokensRevoked();
      return invalid();
    };
    if (stored.props.consumedAt) throw await replay();
    if (stored.props.expiresAt <= now) throw invalid();
    if (stored.props.redirectUri !== command.redirectUri) throw invalid('redirect_uri does not match the authorization request');
    if (stored.props.codeChallenge) {
      if (!command.codeVerifier || !PKCE_VERIFIER.test(command.codeVerifier) || !this.pkce.matches(command.codeVerifier, stored.props.codeChallenge)) {
        throw invalid('code_verifier does not match the code challenge');
      }
    } else if (command.codeVerifier !== undefined) {
      // A verifier for a code issued without a challenge: a PKCE downgrade (RFC 9700 section 2.1.1).
      throw invalid('code_verifier was sent for a code issued without a code_challenge');
    } else if (!client.isConfidential) {
      throw invalid('PKCE is required for a public client');
    }
    if (!(await this.codes.consume(stored.props.id, now))) throw await replay();
    const user = await this.users.findById(stored.props.userId);
    if (!user || !user.isActive) throw invalid();
    const tokens = await this.issuer.issue({ userId: user.id, clientId: client.id, scopes: stored.props.scopes, authorizationCodeId: stored.props.id });
    return { tokens, user };
  }
}
