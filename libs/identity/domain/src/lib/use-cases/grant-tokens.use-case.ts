import { OAuthError } from '../model/oauth-error';
import { User } from '../model/user.entity';
import { AccountLimits, AccountLimitsReader } from '../ports/account-limits-reader';
import { AuthorizationCodeGrantUseCase } from './authorization-code-grant.use-case';
import { PasswordGrantUseCase } from './password-grant.use-case';
import { RefreshGrantUseCase } from './refresh-grant.use-case';
import { IssuedTokens } from '../services/token-issuer';

/** A token request (RFC 6749 section 4), whatever its grant; each grant reads only its own parameters. */
export interface TokenRequest {
  grantType: string;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  /** password grant */
  username?: string;
  password?: string;
  otp?: string;
  ip: string;
  /** refresh_token grant */
  refreshToken?: string;
  /** authorization_code grant */
  code?: string;
  redirectUri?: string;
  codeVerifier?: string;
  /** The caller answers with the tokens alone (RFC 6749's body): the sign-in's account limits are not read. */
  tokensOnly?: boolean;
}

export interface TokenGrant {
  grantType: 'password' | 'refresh_token' | 'authorization_code';
  tokens: IssuedTokens;
  user: User;
  /** With a password sign-in (spec 2.6), unless only the tokens were asked for. */
  limits?: AccountLimits;
}

/** The token endpoint: one grant per request, answered with the tokens and the account they are for. */
/** The grants the token endpoint knows (RFC 6749 sections 4.1.3, 4.3.2, 6); any other is unsupported_grant_type. */
export const GRANT_TYPES = ['password', 'authorization_code', 'refresh_token'] as const;

export class GrantTokensUseCase {
  constructor(
    private readonly passwordGrant: PasswordGrantUseCase,
    private readonly refreshGrant: RefreshGrantUseCase,
    private readonly authorizationCodeGrant: AuthorizationCodeGrantUseCase,
    private readonly limits: AccountLimitsReader,
  ) {}

  async execute(request: TokenRequest): Promise<TokenGrant> {
    const client = { clientId: request.clientId, clientSecret: request.clientSecret };
    switch (request.grantType) {
      case 'password': {
        const { user, tokens } = await this.passwordGrant.execute({
          ...client,
          username: request.username,
          password: request.password,
          scope: request.scope,
          otp: request.otp,
          ip: request.ip,
        });
        if (request.tokensOnly) return { grantType: 'password', tokens, user };
        return { grantType: 'password', tokens, user, limits: await this.limits.limitsOf(user.id) };
      }
      case 'refresh_token': {
        const { tokens, user } = await this.refreshGrant.execute({ ...client, refreshToken: request.refreshToken, scope: request.scope });
        return { grantType: 'refresh_token', tokens, user };
      }
      case 'authorization_code': {
        const { tokens, user } = await this.authorizationCodeGrant.execute({
          ...client,
          code: request.code,
          redirectUri: request.redirectUri,
          codeVerifier: request.codeVerifier,
        });
        return { grantType: 'authorization_code', tokens, user };
      }
      default:
        throw new OAuthError('unsupported_grant_type', `grant_type "${request.grantType}" is not supported`);
    }
  }
}
