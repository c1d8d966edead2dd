import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import {
  AccountChanges,
  AccountDataEraser,
  AccountLimitsReader,
  AddressClaims,
  AuthenticateUseCase,
  CreateOAuthClientUseCase,
  CreateOperatorPatUseCase,
  EmailVerificationSender,
  FindUserByEmailUseCase,
  GetCurrentUserUseCase,
  ListFirstPartyClientsUseCase,
  ListUsersUseCase,
  LoginThrottle,
  Mailer,
  PatMint,
  RegisterUserUseCase,
  RepositoryBearerPrincipals,
  RevocationListener,
  SetPasswordByOperatorUseCase,
  DASHBOARD_CALLBACK_PATH,
  DASHBOARD_CLIENT_ID,
  SCOPES,
  WithBuiltInClients,
} from '@lnk/identity/domain';
import { emailVerificationLink, type IdentityPorts, type IdentitySettings } from '@lnk/identity/adapter-nest';
import { CachedAccountReader, CachedBearerPrincipals, ThrottledPatUses } from '@lnk/identity/adapter-cache';
import {
  AesGcmSecretBox,
  BcryptPasswordHasher,
  InMemoryLoginThrottle,
  NodeSecretGenerator,
  S256PkceVerifier,
  Sha256SecretHasher,
} from '@lnk/identity/adapter-crypto';
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
        ? logger.warn(
            'sign-in attempts counted in this process while Redis does not answer (each instance grants an account its own budget)',
          )
        : logger.info('sign-in attempts counted in Redis again, shared by every instance'),
  });
  watch(() => throttle.shared);
  return throttle;
}

/**
 * The identity context's ports bound to their adapters and its settings, for the HTTP app (IdentityModule
 * builds the routes' use cases from them) and the operator CLI alike, with what the platform shares: the
 * bearer authentication the access guard runs and the current-user cache, both emptied by revocations
 * (and account changes) heard from other instances, and the operator's use cases.
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
  const accountCache = new CachedAccountReader(new TypeormUserRepository(dataSource), clock);
  const getCurrentUser: GetCurrentUserUseCase = new GetCurrentUserUseCase(accountCache);
  const accountChanges = bridges.broadcastAccountChanges?.(accountCache) ?? accountCache;
  const users = new TypeormUserRepository(dataSource, accountChanges);
  // The dashboard's client (a migration's row) gets its redirect URI and scopes from this configuration.
  const clients = new WithBuiltInClients(new TypeormOAuthClientRepository(dataSource), {
    [DASHBOARD_CLIENT_ID]: { redirectUris: [`${config.publicBaseUrl}${DASHBOARD_CALLBACK_PATH}`], scopes: SCOPES },
  });
  const oauthTokens = new TypeormOAuthTokenRepository(dataSource);
  const pats = new TypeormPersonalAccessTokenRepository(dataSource);
  const unitOfWork = new TypeormUnitOfWork(dataSource);

  const ids = new ObjectIdGenerator();
  const secrets = new NodeSecretGenerator();
  const hasher = new Sha256SecretHasher();
  const passwords = new BcryptPasswordHasher(config.bcryptCost);
  const keys = applicationKeys(config);
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom)
    : new LogMailer((message: { to: string; subject: string; text: string }) =>
        logger.info({ mail: { to: message.to, subject: message.subject, text: message.text } }, 'outgoing mail (no SMTP_URL set)'),
      );

  const bearerCache = new CachedBearerPrincipals(new RepositoryBearerPrincipals(oauthTokens, pats), clock);
  const authenticate = new AuthenticateUseCase(bearerCache, new ThrottledPatUses(pats, { clock }), hasher, clock);
  // Every revocation empties the caches of accepted tokens and of their accounts (with Redis, every
  // instance's): an operator who deactivates an account in SQL revokes its tokens to make it take effect.
  const principalCache: RevocationListener = {
    tokensRevoked: () => {
      bearerCache.tokensRevoked();
      accountCache.forgetAll();
    },
  };
  const revocations = bridges.broadcastRevocations?.(principalCache) ?? principalCache;

  const ports: IdentityPorts = {
    users,
    clients,
    oauthTokens,
    pats,
    codes: new TypeormAuthorizationCodeRepository(dataSource),
    backupCodes: new TypeormBackupCodeRepository(dataSource),
    twoFactorStates: new TypeormTwoFactorStateRepository(dataSource),
    verifications: new TypeormEmailVerificationRepository(dataSource),
    emailChanges: new TypeormEmailChangeLog(dataSource),
    idpIdentities: new TypeormIdpIdentityRepository(dataSource),
    unitOfWork,
    ids,
    clock,
    secrets,
    hasher,
    passwords,
    box: new AesGcmSecretBox(keys.sealing, keys.legacySealing),
    totp: new SpeakeasyTotpService('lnk'),
    pkce: new S256PkceVerifier(),
    idTokens: new JoseIdTokenVerifier(config.idpProviders),
    mailer,
    loginThrottle,
    revocations,
    eraser: bridges.eraser,
    limits: bridges.limits,
    currentUser: getCurrentUser,
  };
  const settings: IdentitySettings = {
    publicBaseUrl: config.publicBaseUrl,
    tokenLifetimes: { accessSeconds: config.accessTokenSeconds, refreshSeconds: config.refreshTokenSeconds },
    patLimit: config.patLimit,
    authorizationSigningKey: keys.signing,
    dashboardSigningKey: keys.dashboardSignIn,
  };

  // What the operator CLI runs, built from the same ports (IdentityModule builds its own for the routes).
  const verification = new EmailVerificationSender({
    verifications: ports.verifications,
    mailer,
    secrets,
    hasher,
    ids,
    clock,
    verifyUrl: emailVerificationLink(config.publicBaseUrl),
  });
  const patMint: PatMint = { pats, secrets, hasher, ids, maxActive: settings.patLimit };
  const directory = new TypeormOperatorDirectory(dataSource);

  return {
    ports,
    settings,
    /** The access guard's (BearerStrategy): accepted tokens are cached, so revocations empty it. */
    authenticate,
    /** Empties, in this process, the caches of accepted tokens and of their accounts (a revocation heard). */
    principalCache,
    /** Told of changes of accounts heard from other instances. */
    accountCache: accountCache as AccountChanges,
    registerUser: new RegisterUserUseCase({ users, passwords, ids, clock, verification, claims: new AddressClaims(users, clock) }),
    createOAuthClient: new CreateOAuthClientUseCase({ clients, users, secrets, hasher, ids, clock }),
    /** For the operator CLI only: no HTTP route reaches these. */
    operator: {
      findUser: new FindUserByEmailUseCase(users),
      listUsers: new ListUsersUseCase(directory),
      listClients: new ListFirstPartyClientsUseCase(directory),
      createPat: new CreateOperatorPatUseCase(users, patMint, clock),
      setPassword: new SetPasswordByOperatorUseCase({ users, passwords, tokens: oauthTokens, pats, revocations, unitOfWork, clock }),
    },
  };
}

export type Identity = ReturnType<typeof composeIdentity>;
