import { OAuthClient } from '../model/oauth-client.entity';
import { OAuthError } from '../model/oauth-error';
import { Scope } from '../model/scope';
import { ClientAuthenticator, grantScopes } from '../services/client-authenticator';

/** A PKCE S256 challenge: the base64url SHA-256 digest of the verifier (RFC 7636 section 4.2). */
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

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
      if (!params.codeChallenge || !PKCE_CHALLENGE.test(params.codeChallenge))
        throw new OAuthError('invalid_request', 'code_challenge must be a base64url SHA-256 digest');
      codeChallenge = params.codeChallenge;
    }
    if (!codeChallenge && !client.isConfidential)
      throw new OAuthError('invalid_request', 'A public client must use PKCE (code_challenge with S256)');
    if (params.state !== undefined && params.state.length > 1024) throw new OAuthError('invalid_request', 'state is too long');
    return { client, redirectUri: params.redirectUri, scopes, state: params.state ?? null, codeChallenge };
  }
}
