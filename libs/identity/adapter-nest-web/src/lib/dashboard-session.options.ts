import type { GrantTokensUseCase, RevokeTokenUseCase } from '@lnk/identity/domain';

/** What the app gives the dashboard's session endpoints. */
export interface DashboardSessionOptions {
  /** The token endpoint's grants (authorization_code, refresh_token), for the dashboard's client. */
  grantTokens: GrantTokensUseCase;
  revokeToken: RevokeTokenUseCase;
  /** PUBLIC_BASE_URL: the redirect URI, the origin requests must come from, and whether cookies are Secure. */
  publicBaseUrl: string;
  /** Signs the sign-in cookie; derived for this purpose only. */
  signingKey: Buffer;
}

export const DASHBOARD_SESSION_OPTIONS = 'DashboardSessionOptions';
