import type { TokenLifetimes } from '@lnk/identity/domain';

/**
 * What the identity context takes from the app's configuration, validated there once. An abstract class,
 * so it is the Nest token its consumers inject by.
 */
export abstract class IdentitySettings {
  /** PUBLIC_BASE_URL: the issuer (`iss`, RFC 9207), and the base of the authorization page and of e-mail verification links. */
  abstract readonly publicBaseUrl: string;
  /** ACCESS_TOKEN_SECONDS and REFRESH_TOKEN_SECONDS: how long issued OAuth tokens work. */
  abstract readonly tokenLifetimes: TokenLifetimes;
  /** PAT_LIMIT: the most active personal access tokens an account may hold. */
  abstract readonly patLimit: number;
  /** The key that signs the authorization request the authorization page carries (derived from SECRET_KEY for this use only). */
  abstract readonly authorizationSigningKey: Buffer;
  /** The key that signs the dashboard's pending sign-in cookie (derived from SECRET_KEY for this use only). */
  abstract readonly dashboardSigningKey: Buffer;
}
