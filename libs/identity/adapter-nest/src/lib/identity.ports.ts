import {
  AccountDataEraser,
  AccountLimitsReader,
  AuthorizationCodeRepository,
  BackupCodeRepository,
  EmailChangeLog,
  EmailVerificationRepository,
  GetCurrentUserUseCase,
  IdpIdentityRepository,
  IdTokenVerifier,
  LoginThrottle,
  Mailer,
  OAuthClientRepository,
  OAuthTokenRepository,
  PersonalAccessTokenRepository,
  PkceVerifier,
  RevocationListener,
  SecretBox,
  SecretGenerator,
  SecretHasher,
  TotpService,
  TwoFactorStateRepository,
  UserRepository,
} from '@lnk/identity/domain';
import { Clock, IdGenerator, PasswordHasher, UnitOfWork } from '@lnk/shared/kernel';
import type { Token } from '@lnk/shared/http';

/**
 * Every port the identity use cases of the HTTP face need, by the name the app binds it under
 * (IdentityPorts), each provided in IdentityModule under its abstract class: the use cases are built from
 * them by class, and the app's composition root binds them all in one typed object, so a port left
 * unbound does not compile.
 */
export const IDENTITY_PORTS = {
  /** Accounts; every committed change is reported to the current-user cache (with Redis, every instance's). */
  users: UserRepository,
  clients: OAuthClientRepository,
  oauthTokens: OAuthTokenRepository,
  pats: PersonalAccessTokenRepository,
  codes: AuthorizationCodeRepository,
  backupCodes: BackupCodeRepository,
  twoFactorStates: TwoFactorStateRepository,
  verifications: EmailVerificationRepository,
  emailChanges: EmailChangeLog,
  idpIdentities: IdpIdentityRepository,
  unitOfWork: UnitOfWork,
  ids: IdGenerator,
  clock: Clock,
  secrets: SecretGenerator,
  hasher: SecretHasher,
  /** Account passwords' hashes. */
  passwords: PasswordHasher,
  /** Seals TOTP secrets. */
  box: SecretBox,
  totp: TotpService,
  pkce: PkceVerifier,
  /** The configured identity providers' ID tokens. */
  idTokens: IdTokenVerifier,
  mailer: Mailer,
  /** Every check of a password; shared through Redis by every instance, closed by the app. */
  loginThrottle: LoginThrottle,
  /** Told of every revocation: empties the caches of accepted tokens and of accounts (with Redis, every instance's). */
  revocations: RevocationListener,
  /** What other contexts hold for an account, erased with it (a bridge). */
  eraser: AccountDataEraser,
  /** Billing's limits and usage (a bridge). */
  limits: AccountLimitsReader,
  /**
   * The current-user cache (GET /user/me): the app builds it, as it empties it on account changes and
   * revocations heard from other instances.
   */
  currentUser: GetCurrentUserUseCase,
};

/** What the app binds each of IDENTITY_PORTS to. */
export type IdentityPorts = { readonly [K in keyof typeof IDENTITY_PORTS]: (typeof IDENTITY_PORTS)[K] extends Token<infer T> ? T : never };
