import { Body, Controller, Header, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitedError } from '@lnk/shared/kernel';
import {
  type AuthorizationRequestParams,
  DecideAuthorizationUseCase,
  GrantTokensUseCase,
  IdpSignInUseCase,
  IntrospectTokenUseCase,
  OAuthError,
  RevokeTokenUseCase,
  TwoFactorRequiredError,
  ValidateAuthorizationRequestUseCase,
} from '@lnk/identity/domain';
import { AcceptsForm, ok, pageHeaders, Public, raw, Route, string } from '@lnk/shared/http';
import {
  AuthorizationRedirectSchema,
  EmptySchema,
  IntrospectionSchema,
  RevokedSchema,
  SignInSchema,
  TokenResponseSchema,
} from './oauth.schemas';
import { renderAuthorizationPage, renderErrorPage, RequestSigner } from './authorization-page';
import { IdentitySettings } from './identity.settings';
import { AuthorizeDecisionDto, AuthorizeQueryDto, IdpRequestDto, TokenHintRequestDto, TokenRequestDto } from './oauth.request.dto';
import { isFormRequest, OAuthProtocolFilter } from './oauth-protocol.filter';
import { presentSignIn, presentTokens } from './oauth.presenter';

/** Client credentials from HTTP Basic (RFC 6749 section 2.3.1), when sent that way. */
function basicCredentials(request: FastifyRequest): { clientId?: string; clientSecret?: string } {
  const header = request.headers.authorization;
  if (!header?.startsWith('Basic ')) return {};
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return {};
  const decode = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));
  try {
    return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)) };
  } catch {
    return {};
  }
}

/** The client's credentials, from HTTP Basic or the body; both naming different clients is refused. */
function clientCredentials(
  request: FastifyRequest,
  body: { client_id?: string; client_secret?: string },
): { clientId?: string; clientSecret?: string } {
  const basic = basicCredentials(request);
  if (basic.clientId && body.client_id && basic.clientId !== body.client_id)
    throw new OAuthError('invalid_request', 'client_id differs from the HTTP Basic credentials');
  return { clientId: basic.clientId ?? body.client_id, clientSecret: basic.clientSecret ?? body.client_secret };
}

function authorizationParams(query: AuthorizeQueryDto): AuthorizationRequestParams {
  return {
    responseType: query.response_type,
    clientId: query.client_id,
    redirectUri: query.redirect_uri,
    scope: query.scope,
    state: query.state,
    codeChallenge: query.code_challenge,
    codeChallengeMethod: query.code_challenge_method,
  };
}

/** The public OAuth 2.0 endpoints (spec 4.1). */
@Controller('oauth')
@Public()
@AcceptsForm()
@UseFilters(OAuthProtocolFilter)
export class OAuthController {
  constructor(
    private readonly grantTokens: GrantTokensUseCase,
    private readonly revokeToken: RevokeTokenUseCase,
    private readonly introspectToken: IntrospectTokenUseCase,
    private readonly idpSignIn: IdpSignInUseCase,
    private readonly validateAuthorization: ValidateAuthorizationRequestUseCase,
    private readonly decideAuthorization: DecideAuthorizationUseCase,
    private readonly signer: RequestSigner,
    private readonly settings: IdentitySettings,
  ) {}

  @Route('POST', 'token', {
    operationId: 'grantTokens',
    answers: SignInSchema,
    form: TokenResponseSchema,
    errors: { 401: 'json', 403: 'json' },
    summary: 'Get or refresh tokens (OAuth 2.0 token endpoint)',
    description:
      'Grants `password`, `authorization_code` and `refresh_token` (RFC 6749); a client with a secret ' +
      'authenticates on each. `user.email` and `user.name` come only with the user:read scope. A JSON ' +
      'body answers the envelope; a form-encoded one answers the RFC 6749 body and errors.',
  })
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  async token(@Body() body: TokenRequestDto, @Req() request: FastifyRequest) {
    const form = isFormRequest(request);
    const grant = await this.grantTokens.execute({
      ...clientCredentials(request, body),
      grantType: body.grant_type,
      scope: body.scope,
      username: body.username,
      password: body.password,
      otp: body.otp,
      ip: request.ip,
      refreshToken: body.refresh_token,
      code: body.code,
      redirectUri: body.redirect_uri,
      codeVerifier: body.code_verifier,
      tokensOnly: form,
    });
    if (form) return raw(presentTokens(grant.tokens));
    return ok(
      presentSignIn(grant.tokens, grant.user, grant.limits),
      grant.grantType === 'refresh_token' ? 'Token refreshed' : 'Login successful',
    );
  }

  @Route('POST', 'revoke', {
    operationId: 'revokeOAuthToken',
    answers: RevokedSchema,
    form: EmptySchema,
    errors: { 401: 'json' },
    summary: 'Revoke a token (RFC 7009)',
    description: 'Revokes an access or refresh token; an unknown token is no error.',
  })
  async revoke(@Body() body: TokenHintRequestDto, @Req() request: FastifyRequest) {
    await this.revokeToken.execute(body.token);
    return isFormRequest(request) ? raw({}) : ok({ revoked: true }, 'Token revoked');
  }

  @Route('POST', 'introspect', {
    operationId: 'introspectToken',
    answers: IntrospectionSchema,
    form: IntrospectionSchema,
    errors: { 401: 'json' },
    summary: 'Introspect a token (RFC 7662)',
    description:
      'Whether a token is active. Its kind, scopes, client, expiry and account (`username` only with user:read) go only to the ' +
      'client it was issued to, authenticated with its secret (HTTP Basic or the body); anyone else gets `{active}` alone.',
  })
  @Header('Cache-Control', 'no-store')
  async introspect(@Body() body: TokenHintRequestDto, @Req() request: FastifyRequest) {
    const result = await this.introspectToken.execute(body.token, clientCredentials(request, body));
    return isFormRequest(request) ? raw(result) : ok(result, result.active ? 'Token is active' : 'Token is not active');
  }

  @Route('POST', 'idp', {
    operationId: 'signInWithIdentityProvider',
    answers: SignInSchema,
    errors: { 401: 'json', 403: 'json' },
    summary: 'Sign in with an identity provider',
    description: "Exchanges an ID token of the configured identity provider for this service's access and refresh tokens.",
  })
  @Header('Cache-Control', 'no-store')
  async idp(@Body() body: IdpRequestDto, @Req() request: FastifyRequest) {
    const { user, tokens } = await this.idpSignIn.execute({ idToken: body.token, clientId: body.client_id, otp: body.otp, ip: request.ip });
    return ok(presentSignIn(tokens, user), 'Login successful');
  }

  /** Checks the request, then sends the browser to the service's own authorization page. */
  @Route('GET', 'authorize', {
    operationId: 'startAuthorization',
    answers: AuthorizationRedirectSchema,
    status: 302,
    summary: 'Start an authorization-code flow',
    description: 'Checks the client, redirect URI, scopes and PKCE parameters, then redirects the browser (302) to the authorization page.',
  })
  async authorize(@Query() query: AuthorizeQueryDto, @Res() reply: FastifyReply) {
    await this.validateAuthorization.execute(authorizationParams(query));
    const page = new URL(`${this.settings.publicBaseUrl}/oauth/authorize/page`);
    for (const [key, value] of Object.entries(query)) if (typeof value === 'string') page.searchParams.set(key, value);
    const redirectUrl = page.toString();
    void reply
      .code(302)
      .header('location', redirectUrl)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send({ status: 302, code: 'OK', message: 'Redirecting to the authorization page', data: { redirect_url: redirectUrl } });
  }

  @Route('GET', 'authorize/page', {
    operationId: 'getAuthorizationPage',
    raw: { 'text/html': string },
    errors: { 400: 'html or json' },
    summary: 'Authorization page',
    description: "The HTML page where a person signs in and approves or denies the client's request.",
  })
  async authorizationPage(@Query() query: AuthorizeQueryDto, @Res() reply: FastifyReply) {
    const params = authorizationParams(query);
    let request;
    try {
      request = await this.validateAuthorization.execute(params);
    } catch (error) {
      return this.sendPage(reply, 400, renderErrorPage((error as Error).message));
    }
    return this.sendPage(reply, 200, renderAuthorizationPage({ request, signed: this.signer.sign(params) }), request.redirectUri);
  }

  /** The page's answer: 302 to the client with a code (or access_denied), or the page again with the error. */
  @Route('POST', 'authorize', {
    operationId: 'decideAuthorization',
    answers: null,
    status: 302,
    errors: { 400: 'html or json', 401: 'html', 429: 'html' },
    summary: 'Approve or deny an authorization request',
    description:
      'What the authorization page posts (form-encoded): a redirect (302) to the ' +
      'client with a code or access_denied, or the page again with the error.',
  })
  async decide(@Body() body: AuthorizeDecisionDto, @Req() httpRequest: FastifyRequest, @Res() reply: FastifyReply) {
    const params = this.signer.open(body.request, body.signature);
    if (!params) return this.sendPage(reply, 400, renderErrorPage('The authorization form was altered; start again from the application.'));
    const outcome = await this.decideAuthorization.execute({
      request: params,
      decision: body.decision,
      email: body.email,
      password: body.password,
      otp: body.otp,
      ip: httpRequest.ip,
    });
    switch (outcome.kind) {
      case 'invalid_request':
        return this.sendPage(reply, 400, renderErrorPage(outcome.error.message));
      case 'redirect':
        return void reply
          .code(302)
          .header('location', outcome.redirectUrl)
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .send();
      case 'sign_in_refused': {
        const { request, error } = outcome;
        if (error instanceof RateLimitedError) void reply.header('retry-after', String(error.retryAfterSeconds));
        const message = error instanceof TwoFactorRequiredError ? 'Enter the one-time code from your authenticator app.' : error.message;
        return this.sendPage(
          reply,
          error instanceof RateLimitedError ? 429 : 401,
          renderAuthorizationPage({ request, signed: this.signer.sign(params), error: message, email: body.email }),
          request.redirectUri,
        );
      }
    }
  }

  private sendPage(reply: FastifyReply, status: number, html: string, formTarget?: string): void {
    void reply.code(status).headers(pageHeaders(formTarget)).send(html);
  }
}
