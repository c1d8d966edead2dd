import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import {
  AccountDataEraser,
  AddressClaims,
  AddressNotices,
  AccountLimitsReader,
  AuthenticateUseCase,
  AuthorizationCodeGrantUseCase,
  ChangeEmailUseCase,
  ChangePasswordUseCase,
  ConfirmTwoFactorUseCase,
  ClientAuthenticator,
  CreateOAuthClientUseCase,
  CreateOperatorPatUseCase,
  CreatePersonalAccessTokenUseCase,
  CredentialsChecker,
  DecideAuthorizationUseCase,
  DeleteAccountUseCase,
  DeleteOAuthClientUseCase,
  EmailVerificationSender,
  FindUserByEmailUseCase,
  GrantTokensUseCase,
  LoginThrottle,
  ListFirstPartyClientsUseCase,
  ListUsersUseCase,
  GetCurrentUserUseCase,
  GetOAuthClientUseCase,
  GetPersonalAccessTokenUseCase,
  IdpSignInUseCase,
  IntrospectTokenUseCase,
  ListOAuthClientsUseCase,
  ListPersonalAccessTokensUseCase,
  Mailer,
  PasswordGrantUseCase,
  RefreshGrantUseCase,
  RegenerateClientSecretUseCase,
  RegisterUserUseCase,
  RevocationListener,
  AccountChanges,
  RevokePersonalAccessTokenUseCase,
  RevokeAllPersonalAccessTokensUseCase,
  PatMint,
  PersonalAccessTokenNotices,
  RevokeTokenUseCase,
  Reauthentication,
  SecondFactor,
  SetPasswordByOperatorUseCase,
  SetTwoFactorUseCase,
  TokenIssuer,
  UpdateOAuthClientUseCase,
  ValidateAuthorizationRequestUseCase,
  VerifyEmailUseCase,
  ViewEmailVerificationUseCase,
  DASHBOARD_CALLBACK_PATH,
  DASHBOARD_CLIENT_ID,
  SCOPES,
  WithBuiltInClients,
} from '@lnk/identity/domain';
import { AesGcmSecretBox, BcryptPasswordHasher, InMemoryLoginThrottle, NodeSecretGenerator, S256PkceVerifier, Sha256SecretHasher } from '@lnk/identity/adapter-crypto';
import { JoseIdTokenVerifier } from '@lnk/identity/adapter-jose';
import { LogMailer, SmtpMailer } from '@lnk/identity/adapter-mail';
import { SpeakeasyTotpService } from '@lnk/identity/adapter-otp';
import { RedisLoginThrottle } from '@lnk/identity/adapter-redis';
import {
  TypeormAuthorizationCodeRepository,
  TypeormBackupCodeRepository,
  TypeormTwoFactorStateRepository,
  TypeormEmailChangeLog,
  TypeormEmailVerificationRepository,
  TypeormIdpIdentityRepository,
  TypeormOAuthClientRepository,
  TypeormOAuthTokenRepository,
  TypeormOperatorDirectory,
  TypeormPersonalAccessTokenRepository,
  TypeormUserRepository,
} from '@lnk/identity/adapter-typeorm';
import { ObjectIdGenerator, SystemClock } from '@lnk/shared/kernel';
import { TypeormUnitOfWork } from '@lnk/shared/database';
import { AppConfig } from '../config/app-config';
import { applicationKeys } from '../config/secret-key';

export interface IdentityBridges {
  /** Erases what other contexts hold for an account (bound in the app to their use cases). */
  eraser: AccountDataEraser;
  /** The account limits a password sign-in answers with (billing's). */
  limits: AccountLimitsReader;
  /** Spreads revocations beyond this process (Redis), given the local listener. */
  broadcastRevocations?: (local: RevocationListener) => RevocationListener;
  /** Spreads changes of accounts beyond this process (Redis), given the local listener. */
  broadcastAccountChanges?: (local: AccountChanges) => AccountChanges;
}

/** A login throttle that can be let go of (its Redis connection). */
export type ClosableLoginThrottle = LoginThrottle & { close(): Promise<void> };

/**
 * The throttle of every check of an account's password (sign-ins, reauthentication, password change,
 * second factor): with REDIS_URL its counts are shared by every instance (so an account's budget is one,
 * however many instances a guesser spreads over), counted in this process while Redis does not answer.
 * `watch` reports where it counts (the metrics' lnk_redis_up{use="login_throttle"}).
 */
export function openLoginThrottle(
  config: AppConfig,
  logger: Logger,
  watch: (shared: () => boolean) => void = () => undefined,
): ClosableLoginThrottle {
  if (!config.redisUrl) return Object.assign(new InMemoryLoginThrottle(), { close: async () => undefined });
  const throttle = new RedisLoginThrottle(config.redisUrl, {
    fallback: new InMemoryLoginThrottle(),
    onError: (error) => logger.warn({ err: error.message }, 'login throttle redis'),
    onFallback: (local) =>
      local
        ? logger.warn('sign-in attempts counted in this process while Redis does not answer (each instance grants an account its own budget)')
        : logger.info('sign-in attempts counted in Redis again, shared by every instance'),
  });
  watch(() => throttle.shared);
  return throttle;
}

/**
 * The identity context's ports bound to their adapters, for the HTTP app and the operator CLI alike.
 * `loginThrottle`: the app's (openLoginThrottle); the CLI checks no password and keeps the default.
 */
export function composeIdentity(
  dataSource: DataSource,
  config: AppConfig,
  logger: Logger,
  bridges: IdentityBridges,
  loginThrottle: LoginThrottle = new InMemoryLoginThrottle(),
) {
  const clock = new SystemClock();
  // Every committed change of an account evicts it from the cache of GET /user/me (with Redis, every instance's).
  const getCurrentUser: GetCurrentUserUseCase = new GetCurrentUserUseCase(new TypeormUserRepository(dataSource), clock);
  const accountCache: AccountChanges = { accountChanged: (userId) => getCurrentUser.accountChanged(userId) };
  const accountChanges = bridges.broadcastAccountChanges?.(accountCache) ?? accountCache;
  const users = new TypeormUserRepository(dataSource, accountChanges);
  // The dashboard's client (a migration's row) gets its redirect URI and scopes from this configuration.
  const clients = new WithBuiltInClients(new TypeormOAuthClientRepository(dataSource), {
    [DASHBOARD_CLIENT_ID]: { redirectUris: [`${config.publicBaseUrl}${DASHBOARD_CALLBACK_PATH}`], scopes: SCOPES },
  });
  const oauthTokens = new TypeormOAuthTokenRepository(dataSource);
  const pats = new TypeormPersonalAccessTokenRepository(dataSource);
  const codes = new TypeormAuthorizationCodeRepository(dataSource);
  const backupCodes = new TypeormBackupCodeRepository(dataSource);
  const twoFactorStates = new TypeormTwoFactorStateRepository(dataSource);
  const verifications = new TypeormEmailVerificationRepository(dataSource);
  const unitOfWork = new TypeormUnitOfWork(dataSource);

  const ids = new ObjectIdGenerator();
  const secrets = new NodeSecretGenerator();
  const hasher = new Sha256SecretHasher();
  const passwords = new BcryptPasswordHasher(config.bcryptCost);
  const keys = applicationKeys(config);
  const box = new AesGcmSecretBox(keys.sealing, keys.legacySealing);
  const totp = new SpeakeasyTotpService('lnk');
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom)
    : new LogMailer((message: { to: string; subject: string; text: string }) => logger.info({ mail: { to: message.to, subject: message.subject, text: message.text } }, 'outgoing mail (no SMTP_URL set)'));

  const authenticate = new AuthenticateUseCase(oauthTokens, pats, hasher, clock);
  // Every revocation empties the caches of accepted tokens and of their accounts (with Redis, every
  // instance's): an operator who deactivates an account in SQL revokes its tokens to make it take effect.
  const principalCache: RevocationListener = {
    tokensRevoked: () => {
      authenticate.tokensRevoked();
      getCurrentUser.forgetAll();
    },
  };
  const revocations = bridges.broadcastRevocations?.(principalCache) ?? principalCache;
  const issuer = new TokenIssuer(oauthTokens, secrets, hasher, ids, clock, { accessSeconds: config.accessTokenSeconds, refreshSeconds: config.refreshTokenSeconds });
  const clientAuth = new ClientAuthenticator(clients, hasher);
  const secondFactor = new SecondFactor(totp, box, backupCodes, hasher, clock, twoFactorStates);
  const credentials = new CredentialsChecker(users, passwords, loginThrottle, secondFactor);
  const reauthentication = new Reauthentication(passwords, loginThrottle, clock);
  const verification = new EmailVerificationSender(verifications, mailer, secrets, hasher, ids, clock, (token) => `${config.publicBaseUrl}/auth/verify-email?token=${encodeURIComponent(token)}`);
  const validateAuthorization = new ValidateAuthorizationRequestUseCase(clientAuth);
  const addressClaims = new AddressClaims(users, clock);
  const patMint: PatMint = { pats, secrets, hasher, ids, maxActive: config.patLimit };

  return {
    authenticate,
    registerUser: new RegisterUserUseCase(users, passwords, ids, clock, verification, addressClaims),
    createOAuthClient: new CreateOAuthClientUseCase(clients, users, secrets, hasher, ids, clock),
    grantTokens: new GrantTokensUseCase(
      new PasswordGrantUseCase(clientAuth, credentials, issuer),
      new RefreshGrantUseCase(clientAuth, oauthTokens, users, hasher, issuer, revocations, clock),
      new AuthorizationCodeGrantUseCase(clientAuth, codes, oauthTokens, users, hasher, new S256PkceVerifier(), issuer, revocations, clock),
      bridges.limits,
    ),
    validateAuthorization,
    decideAuthorization: new DecideAuthorizationUseCase(validateAuthorization, credentials, codes, secrets, hasher, ids, clock, config.publicBaseUrl),
    idpSignIn: new IdpSignInUseCase(
      new JoseIdTokenVerifier(config.idpProviders),
      clientAuth,
      users,
      new TypeormIdpIdentityRepository(dataSource),
      addressClaims,
      secondFactor,
      loginThrottle,
      unitOfWork,
      issuer,
      ids,
      clock,
    ),
    revokeToken: new RevokeTokenUseCase(oauthTokens, hasher, revocations, clock),
    introspectToken: new IntrospectTokenUseCase(oauthTokens, pats, clients, clientAuth, users, hasher, clock),
    createPat: new CreatePersonalAccessTokenUseCase({ mint: patMint, clients, users, reauthentication, notices: new PersonalAccessTokenNotices(mailer), clock }),
    listPats: new ListPersonalAccessTokensUseCase(pats),
    getPat: new GetPersonalAccessTokenUseCase(pats),
    revokePat: new RevokePersonalAccessTokenUseCase(pats, revocations),
    revokeAllPats: new RevokeAllPersonalAccessTokensUseCase(pats, revocations),
    listClients: new ListOAuthClientsUseCase(clients),
    getClient: new GetOAuthClientUseCase(clients),
    updateClient: new UpdateOAuthClientUseCase(clients, oauthTokens, revocations, clock),
    deleteClient: new DeleteOAuthClientUseCase(clients, revocations),
    regenerateClientSecret: new RegenerateClientSecretUseCase(clients, secrets, hasher, clock),
    getCurrentUser,
    changeEmail: new ChangeEmailUseCase({
      users,
      verifications,
      verification,
      notices: new AddressNotices(mailer),
      log: new TypeormEmailChangeLog(dataSource),
      clock,
      reauthentication,
    }),
    viewEmailVerification: new ViewEmailVerificationUseCase(verifications, users, hasher, clock),
    verifyEmail: new VerifyEmailUseCase(verifications, users, hasher, clock),
    changePassword: new ChangePasswordUseCase(users, passwords, oauthTokens, revocations, clock, reauthentication, pats, unitOfWork),
    setTwoFactor: new SetTwoFactorUseCase(users, totp, box, backupCodes, secondFactor, secrets, hasher, unitOfWork, clock, reauthentication, twoFactorStates),
    confirmTwoFactor: new ConfirmTwoFactorUseCase(users, totp, box, twoFactorStates, reauthentication, unitOfWork, clock),
    deleteAccount: new DeleteAccountUseCase(users, bridges.eraser, unitOfWork, revocations, clock, reauthentication),
    /** For the operator CLI only: no HTTP route reaches these. */
    operator: {
      findUser: new FindUserByEmailUseCase(users),
      listUsers: new ListUsersUseCase(new TypeormOperatorDirectory(dataSource)),
      listClients: new ListFirstPartyClientsUseCase(new TypeormOperatorDirectory(dataSource)),
      createPat: new CreateOperatorPatUseCase(users, patMint, clock),
      setPassword: new SetPasswordByOperatorUseCase(users, passwords, oauthTokens, pats, revocations, unitOfWork, clock),
    },
  };
}

export type Identity = ReturnType<typeof composeIdentity>;
