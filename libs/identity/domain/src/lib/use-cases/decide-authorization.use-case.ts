import { Clock, IdGenerator, RateLimitedError, ValidationError } from '@lnk/shared/kernel';
import { OAuthError, TwoFactorRequiredError } from '../model/oauth-error';
import { AuthorizationCode, TOKEN_BYTES, TOKEN_PREFIX } from '../model/tokens';
import { User } from '../model/user.entity';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { AuthorizationCodeRepository } from '../ports/token.repositories';
import { CredentialsChecker } from '../services/credentials-checker';
import {
  AuthorizationRequest,
  AuthorizationRequestParams,
  ValidateAuthorizationRequestUseCase,
} from './validate-authorization-request.use-case';

export const AUTHORIZATION_CODE_SECONDS = 60;

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
  return (
    error instanceof OAuthError ||
    error instanceof TwoFactorRequiredError ||
    error instanceof ValidationError ||
    error instanceof RateLimitedError
  );
}

/** What answering an authorization request needs: its validation, the user's credentials, the codes it issues, and this server's issuer. */
export interface AuthorizationDeciding {
  validate: ValidateAuthorizationRequestUseCase;
  credentials: CredentialsChecker;
  codes: AuthorizationCodeRepository;
  secrets: SecretGenerator;
  hasher: SecretHasher;
  ids: IdGenerator;
  clock: Clock;
  /** This server's issuer identifier, sent as `iss` so a client can tell which server answered (RFC 9207). */
  issuer: string;
}

/**
 * The resource owner's answer on the authorization page: a redirect carrying a code, or access_denied.
 * The request is checked once, here, and the outcome carries the checked request for the page to show again.
 */
export class DecideAuthorizationUseCase {
  constructor(private readonly deps: AuthorizationDeciding) {}

  async execute(decision: AuthorizationDecision): Promise<AuthorizationOutcome> {
    let request: AuthorizationRequest;
    try {
      request = await this.deps.validate.execute(decision.request);
    } catch (error) {
      if (error instanceof OAuthError) return { kind: 'invalid_request', error };
      throw error;
    }
    if (decision.decision === 'deny') {
      return {
        kind: 'redirect',
        redirectUrl: redirectTo(request.redirectUri, { error: 'access_denied', state: request.state, iss: this.deps.issuer }),
      };
    }
    let user: User;
    try {
      user = await this.deps.credentials.check({ email: decision.email, password: decision.password, otp: decision.otp, ip: decision.ip });
    } catch (error) {
      if (isSignInRefusal(error)) return { kind: 'sign_in_refused', request, error };
      throw error;
    }
    const code = TOKEN_PREFIX.code + this.deps.secrets.generate(TOKEN_BYTES);
    const now = this.deps.clock.now();
    await this.deps.codes.insert(
      new AuthorizationCode({
        id: this.deps.ids.next(),
        codeHash: this.deps.hasher.hash(code),
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
    return { kind: 'redirect', redirectUrl: redirectTo(request.redirectUri, { code, state: request.state, iss: this.deps.issuer }) };
  }
}
