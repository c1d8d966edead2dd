import { Controller, Header, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '@lnk/shared/kernel';
import { DASHBOARD_CALLBACK_PATH, DASHBOARD_CLIENT_ID, GrantTokensUseCase, OAuthError, RevokeTokenUseCase } from '@lnk/identity/domain';
import { ok, Public, Route, type Static } from '@lnk/shared/http';
import { DashboardSessionSchema, SignedOutSchema } from './dashboard-session.schemas';
import { DashboardCallbackQueryDto, DashboardSignInQueryDto } from './dashboard-session.request.dto';
import { IdentitySettings } from './identity.settings';
import {
  challengeOf,
  cookiesOf,
  CSRF_HEADER,
  dashboardPath,
  newPendingSignIn,
  PendingSignInSeal,
  SESSION_COOKIE,
  SessionCookies,
  SIGN_IN_COOKIE,
} from './session-cookies';

/** Why a sign-in came back without a session, as the dashboard's sign-in page names it. */
type SignInFailure = 'denied' | 'expired' | 'failed';

/**
 * The dashboard's sign-in, as a token-mediating backend (docs/adr/2026-11-27-dashboard-sign-in.md): the
 * server runs the authorization-code flow with PKCE for the dashboard's public client through the
 * service's own authorization page (two-factor codes included), keeps the refresh token in an HttpOnly,
 * SameSite=Strict cookie for /app/auth only, and hands the page short-lived access tokens it keeps in
 * memory. The cookie-authenticated POSTs need the dashboard's header and the service's own Origin.
 */
@Controller('app/auth')
@Public()
export class DashboardSessionController {
  private readonly seal: PendingSignInSeal;
  private readonly cookies: SessionCookies;
  private readonly origin: string;
  private readonly redirectUri: string;

  private readonly publicBaseUrl: string;

  constructor(
    private readonly grantTokens: GrantTokensUseCase,
    private readonly revokeToken: RevokeTokenUseCase,
    settings: IdentitySettings,
  ) {
    this.publicBaseUrl = settings.publicBaseUrl;
    this.seal = new PendingSignInSeal(settings.dashboardSigningKey);
    this.cookies = new SessionCookies(settings.publicBaseUrl);
    this.origin = new URL(settings.publicBaseUrl).origin;
    this.redirectUri = `${settings.publicBaseUrl}${DASHBOARD_CALLBACK_PATH}`;
  }

  @Route('GET', 'sign-in', {
    operationId: 'startDashboardSignIn',
    answers: null,
    status: 302,
    summary: "Start the dashboard's sign-in",
    description:
      'For the dashboard at /app: remembers a new state and PKCE verifier in a signed HttpOnly cookie and ' +
      'redirects (302) to the authorization page, which sends the browser back to /app/auth/callback.',
  })
  signIn(@Query() query: DashboardSignInQueryDto, @Res() reply: FastifyReply): void {
    const pending = newPendingSignIn(dashboardPath(query.return_to), Date.now());
    const authorize = new URL(`${this.publicBaseUrl}/oauth/authorize`);
    const params = {
      response_type: 'code',
      client_id: DASHBOARD_CLIENT_ID,
      redirect_uri: this.redirectUri,
      state: pending.state,
      code_challenge: challengeOf(pending.verifier),
      code_challenge_method: 'S256',
    };
    for (const [key, value] of Object.entries(params)) authorize.searchParams.set(key, value);
    void reply
      .code(302)
      .header('set-cookie', this.cookies.signIn(this.seal.seal(pending)))
      .header('cache-control', 'no-store')
      .header('location', authorize.toString())
      .send();
  }

  @Route('GET', 'callback', {
    operationId: 'confirmDashboardSignIn',
    answers: null,
    status: 302,
    summary: "End the dashboard's sign-in",
    description:
      'Where the authorization page sends the browser back: checks the state against the sign-in cookie, exchanges ' +
      'the code with its PKCE verifier, sets the session cookie (HttpOnly, SameSite=Strict, path /app/auth) and ' +
      'redirects (302) into the dashboard; on any failure, to /app/sign-in?error=denied|expired|failed.',
  })
  async callback(@Query() query: DashboardCallbackQueryDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const pending = this.seal.open(cookiesOf(request.headers.cookie)[SIGN_IN_COOKIE], Date.now());
    const cookies = [this.cookies.cleared(SIGN_IN_COOKIE)];
    const back = (location: string) =>
      void reply
        .code(302)
        .header('set-cookie', cookies)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('location', location)
        .send();
    const failed = (why: SignInFailure) => back(`/app/sign-in?error=${why}`);
    // A response for another sign-in, or none (a forged or replayed callback): never exchanged.
    if (!pending || !query.state || query.state !== pending.state) return failed('expired');
    // RFC 9207: a response that names another issuer did not come from this server.
    if (query.iss !== undefined && query.iss !== this.publicBaseUrl) return failed('failed');
    if (query.error) return failed(query.error === 'access_denied' ? 'denied' : 'failed');
    if (!query.code) return failed('failed');
    try {
      const { tokens } = await this.grantTokens.execute({
        grantType: 'authorization_code',
        clientId: DASHBOARD_CLIENT_ID,
        code: query.code,
        redirectUri: this.redirectUri,
        codeVerifier: pending.verifier,
        ip: request.ip,
        tokensOnly: true,
      });
      cookies.push(this.cookies.session(tokens.refreshToken, tokens.token.props.refreshExpiresAt));
    } catch (error) {
      if (error instanceof OAuthError) return failed('failed');
      throw error;
    }
    back(pending.returnTo);
  }

  @Route('POST', 'refresh', {
    operationId: 'grantDashboardToken',
    answers: DashboardSessionSchema,
    errors: { 401: 'json', 403: 'json' },
    summary: 'A new access token for the dashboard',
    description:
      "For the dashboard only: exchanges the session cookie's refresh token (rotated: the cookie is " +
      "replaced) for a new access token. Needs the `X-Lnk-Dashboard: 1` header and the service's own " +
      'Origin (403 otherwise); 401 and the cookie cleared when there is no session.',
  })
  @Header('cache-control', 'no-store')
  async refresh(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    this.checkSameOrigin(request);
    const refreshToken = cookiesOf(request.headers.cookie)[SESSION_COOKIE];
    if (!refreshToken) throw new UnauthorizedError('Not signed in to the dashboard');
    try {
      const { tokens, user } = await this.grantTokens.execute({
        grantType: 'refresh_token',
        clientId: DASHBOARD_CLIENT_ID,
        refreshToken,
        ip: request.ip,
        tokensOnly: true,
      });
      void reply.header('set-cookie', this.cookies.session(tokens.refreshToken, tokens.token.props.refreshExpiresAt));
      const session: Static<typeof DashboardSessionSchema> = {
        accessToken: tokens.accessToken,
        tokenType: 'Bearer',
        expiresIn: tokens.expiresIn,
        scopes: [...tokens.scopes],
        user: { id: user.id, email: user.email, name: user.name },
      };
      return ok(session, 'Session refreshed');
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      void reply.header('set-cookie', this.cookies.cleared(SESSION_COOKIE));
      throw new UnauthorizedError('The dashboard session has ended: sign in again');
    }
  }

  @Route('POST', 'sign-out', {
    operationId: 'revokeDashboardSession',
    answers: SignedOutSchema,
    errors: { 403: 'json' },
    summary: 'Sign out of the dashboard',
    description:
      "For the dashboard only: revokes the session's refresh token and every access token issued with it, and clears " +
      "the cookie. Needs the `X-Lnk-Dashboard: 1` header and the service's own Origin (403 otherwise).",
  })
  @Header('cache-control', 'no-store')
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    this.checkSameOrigin(request);
    const refreshToken = cookiesOf(request.headers.cookie)[SESSION_COOKIE];
    // Revoking a refresh token ends its whole family: the access tokens the page was handed included.
    if (refreshToken) await this.revokeToken.execute(refreshToken);
    void reply.header('set-cookie', this.cookies.cleared(SESSION_COOKIE));
    return ok({ signedOut: true }, 'Signed out');
  }

  /**
   * CSRF: the cookie is SameSite=Strict, and on top of it the request must come from the dashboard's own
   * origin (browsers send Origin on every POST) with the dashboard's header, which no form can send and a
   * cross-site script cannot without a CORS preflight the API does not grant for this path.
   */
  private checkSameOrigin(request: FastifyRequest): void {
    if (request.headers[CSRF_HEADER] !== '1') throw new ForbiddenError(`This request needs the X-Lnk-Dashboard: 1 header`);
    if (request.headers.origin !== this.origin) throw new ForbiddenError("This request must come from the dashboard's own origin");
  }
}
