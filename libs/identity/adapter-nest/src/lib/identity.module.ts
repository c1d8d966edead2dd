import { ConfigurableModuleBuilder, Module, Provider } from '@nestjs/common';
import { DashboardSessionController } from './dashboard-session.controller';
import {
  AccountDataEraser,
  AccountLimitsReader,
  AddressClaims,
  AddressNotices,
  AuthorizationCodeGrantUseCase,
  AuthorizationCodeRepository,
  BackupCodeRepository,
  ChangeEmailUseCase,
  ChangeNameUseCase,
  ChangePasswordUseCase,
  ClientAuthenticator,
  ConfirmTwoFactorUseCase,
  CreateOAuthClientUseCase,
  CreatePersonalAccessTokenUseCase,
  CredentialsChecker,
  DecideAuthorizationUseCase,
  DeleteAccountUseCase,
  DeleteOAuthClientUseCase,
  EmailChangeLog,
  EmailVerificationRepository,
  EmailVerificationSender,
  GetOAuthClientUseCase,
  GetPersonalAccessTokenUseCase,
  GrantTokensUseCase,
  IdpIdentityRepository,
  IdpSignInUseCase,
  IdTokenVerifier,
  IntrospectTokenUseCase,
  ListOAuthClientsUseCase,
  ListPersonalAccessTokensUseCase,
  LoginThrottle,
  Mailer,
  OAuthClientRepository,
  OAuthTokenRepository,
  PasswordGrantUseCase,
  PersonalAccessTokenNotices,
  PersonalAccessTokenRepository,
  PkceVerifier,
  Reauthentication,
  RefreshGrantUseCase,
  RegenerateClientSecretUseCase,
  RevocationListener,
  RevokeAllPersonalAccessTokensUseCase,
  RevokePersonalAccessTokenUseCase,
  RevokeTokenUseCase,
  SecondFactor,
  SecretBox,
  SecretGenerator,
  SecretHasher,
  SetTwoFactorUseCase,
  TokenIssuer,
  TotpService,
  TwoFactorStateRepository,
  UpdateOAuthClientUseCase,
  UserRepository,
  ValidateAuthorizationRequestUseCase,
  VerifyEmailUseCase,
  ViewAccountLimitsUseCase,
  ViewEmailVerificationUseCase,
} from '@lnk/identity/domain';
import { Clock, IdGenerator, PasswordHasher, UnitOfWork } from '@lnk/shared/kernel';
import { providerOf } from '@lnk/shared/http';
import { AccountController, EmailVerificationController, emailVerificationLink } from './account.controller';
import { RequestSigner } from './authorization-page';
import { IDENTITY_PORTS, IdentityPorts } from './identity.ports';
import { IdentitySettings } from './identity.settings';
import { OAuthController } from './oauth.controller';
import { OAuthClientsController } from './oauth-clients.controller';
import { TokensController } from './tokens.controller';

export interface IdentityModuleOptions {
  ports: IdentityPorts;
  settings: IdentitySettings;
}

/**
 * `IdentityModule.forRootAsync({ inject, useFactory })`: the app gives the ports it bound and the settings
 * (Nest's ConfigurableModuleBuilder makes the methods and the options' provider).
 */
const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: OPTIONS } = new ConfigurableModuleBuilder<IdentityModuleOptions>()
  .setClassMethodName('forRoot')
  .build();

/** Each port under its abstract class, as the app bound it. */
const PORTS: Provider[] = Object.entries(IDENTITY_PORTS).map(([name, port]) => ({
  provide: port,
  inject: [OPTIONS],
  useFactory: ({ ports }: IdentityModuleOptions) => ports[name as keyof IdentityPorts],
}));

/** The domain's services several use cases share, once for the app. */
const SERVICES: Provider[] = [
  providerOf(
    TokenIssuer,
    [OAuthTokenRepository, SecretGenerator, SecretHasher, IdGenerator, Clock, IdentitySettings],
    (tokens, secrets, hasher, ids, clock, settings) =>
      new TokenIssuer({ tokens, secrets, hasher, ids, clock, lifetimes: settings.tokenLifetimes }),
  ),
  providerOf(ClientAuthenticator, [OAuthClientRepository, SecretHasher]),
  providerOf(SecondFactor, {
    totp: TotpService,
    box: SecretBox,
    backupCodes: BackupCodeRepository,
    hasher: SecretHasher,
    clock: Clock,
    states: TwoFactorStateRepository,
  }),
  providerOf(CredentialsChecker, [UserRepository, PasswordHasher, LoginThrottle, SecondFactor]),
  providerOf(Reauthentication, [PasswordHasher, LoginThrottle, Clock]),
  providerOf(
    EmailVerificationSender,
    [EmailVerificationRepository, Mailer, SecretGenerator, SecretHasher, IdGenerator, Clock, IdentitySettings],
    (verifications, mailer, secrets, hasher, ids, clock, settings) =>
      new EmailVerificationSender({
        verifications,
        mailer,
        secrets,
        hasher,
        ids,
        clock,
        verifyUrl: emailVerificationLink(settings.publicBaseUrl),
      }),
  ),
  providerOf(AddressClaims, [UserRepository, Clock]),
  providerOf(AddressNotices, [Mailer]),
  providerOf(PersonalAccessTokenNotices, [Mailer]),
];

/** Each use case the routes call, built from the ports and services it needs (injected by their classes). */
const USE_CASES: Provider[] = [
  // OAuth (spec 4.1)
  providerOf(PasswordGrantUseCase, [ClientAuthenticator, CredentialsChecker, TokenIssuer]),
  providerOf(RefreshGrantUseCase, {
    clients: ClientAuthenticator,
    tokens: OAuthTokenRepository,
    users: UserRepository,
    hasher: SecretHasher,
    issuer: TokenIssuer,
    revocations: RevocationListener,
    clock: Clock,
  }),
  providerOf(AuthorizationCodeGrantUseCase, {
    clients: ClientAuthenticator,
    codes: AuthorizationCodeRepository,
    tokens: OAuthTokenRepository,
    users: UserRepository,
    hasher: SecretHasher,
    pkce: PkceVerifier,
    issuer: TokenIssuer,
    revocations: RevocationListener,
    clock: Clock,
  }),
  providerOf(GrantTokensUseCase, [PasswordGrantUseCase, RefreshGrantUseCase, AuthorizationCodeGrantUseCase, AccountLimitsReader]),
  providerOf(ValidateAuthorizationRequestUseCase, [ClientAuthenticator]),
  providerOf(
    DecideAuthorizationUseCase,
    [
      ValidateAuthorizationRequestUseCase,
      CredentialsChecker,
      AuthorizationCodeRepository,
      SecretGenerator,
      SecretHasher,
      IdGenerator,
      Clock,
      IdentitySettings,
    ],
    // The issuer identifier (`iss`, RFC 9207) is this server's public base URL.
    (validate, credentials, codes, secrets, hasher, ids, clock, settings) =>
      new DecideAuthorizationUseCase({ validate, credentials, codes, secrets, hasher, ids, clock, issuer: settings.publicBaseUrl }),
  ),
  providerOf(IdpSignInUseCase, {
    verifier: IdTokenVerifier,
    clients: ClientAuthenticator,
    users: UserRepository,
    identities: IdpIdentityRepository,
    claims: AddressClaims,
    secondFactor: SecondFactor,
    throttle: LoginThrottle,
    unitOfWork: UnitOfWork,
    issuer: TokenIssuer,
    ids: IdGenerator,
    clock: Clock,
  }),
  providerOf(RevokeTokenUseCase, [OAuthTokenRepository, SecretHasher, RevocationListener, Clock]),
  providerOf(IntrospectTokenUseCase, {
    oauthTokens: OAuthTokenRepository,
    pats: PersonalAccessTokenRepository,
    clients: OAuthClientRepository,
    clientAuth: ClientAuthenticator,
    users: UserRepository,
    hasher: SecretHasher,
    clock: Clock,
  }),
  // Personal access tokens (spec 4.2)
  providerOf(
    CreatePersonalAccessTokenUseCase,
    [
      PersonalAccessTokenRepository,
      SecretGenerator,
      SecretHasher,
      IdGenerator,
      IdentitySettings,
      OAuthClientRepository,
      UserRepository,
      Reauthentication,
      PersonalAccessTokenNotices,
      Clock,
    ],
    (pats, secrets, hasher, ids, settings, clients, users, reauthentication, notices, clock) => {
      const mint = { pats, secrets, hasher, ids, maxActive: settings.patLimit };
      return new CreatePersonalAccessTokenUseCase({ mint, clients, users, reauthentication, notices, clock });
    },
  ),
  providerOf(ListPersonalAccessTokensUseCase, [PersonalAccessTokenRepository]),
  providerOf(GetPersonalAccessTokenUseCase, [PersonalAccessTokenRepository]),
  providerOf(RevokePersonalAccessTokenUseCase, [PersonalAccessTokenRepository, RevocationListener]),
  providerOf(RevokeAllPersonalAccessTokensUseCase, [PersonalAccessTokenRepository, RevocationListener]),
  // OAuth clients (spec 4.2)
  providerOf(CreateOAuthClientUseCase, {
    clients: OAuthClientRepository,
    users: UserRepository,
    secrets: SecretGenerator,
    hasher: SecretHasher,
    ids: IdGenerator,
    clock: Clock,
  }),
  providerOf(ListOAuthClientsUseCase, [OAuthClientRepository]),
  providerOf(GetOAuthClientUseCase, [OAuthClientRepository]),
  providerOf(UpdateOAuthClientUseCase, [OAuthClientRepository, OAuthTokenRepository, RevocationListener, Clock]),
  providerOf(DeleteOAuthClientUseCase, [OAuthClientRepository, RevocationListener]),
  providerOf(RegenerateClientSecretUseCase, [OAuthClientRepository, SecretGenerator, SecretHasher, Clock]),
  // The account (spec 4.3); GET /user/me reads the current-user cache the app bound.
  providerOf(ChangeEmailUseCase, {
    users: UserRepository,
    verifications: EmailVerificationRepository,
    verification: EmailVerificationSender,
    notices: AddressNotices,
    log: EmailChangeLog,
    clock: Clock,
    reauthentication: Reauthentication,
  }),
  providerOf(ViewEmailVerificationUseCase, [EmailVerificationRepository, UserRepository, SecretHasher, Clock]),
  providerOf(VerifyEmailUseCase, [EmailVerificationRepository, UserRepository, SecretHasher, Clock]),
  providerOf(ChangeNameUseCase, [UserRepository, Clock]),
  providerOf(ChangePasswordUseCase, {
    users: UserRepository,
    passwords: PasswordHasher,
    tokens: OAuthTokenRepository,
    revocations: RevocationListener,
    clock: Clock,
    reauthentication: Reauthentication,
    pats: PersonalAccessTokenRepository,
    unitOfWork: UnitOfWork,
  }),
  providerOf(SetTwoFactorUseCase, {
    users: UserRepository,
    totp: TotpService,
    box: SecretBox,
    backupCodes: BackupCodeRepository,
    secondFactor: SecondFactor,
    secrets: SecretGenerator,
    hasher: SecretHasher,
    unitOfWork: UnitOfWork,
    clock: Clock,
    reauthentication: Reauthentication,
    states: TwoFactorStateRepository,
  }),
  providerOf(ConfirmTwoFactorUseCase, {
    users: UserRepository,
    totp: TotpService,
    box: SecretBox,
    states: TwoFactorStateRepository,
    reauthentication: Reauthentication,
    unitOfWork: UnitOfWork,
    clock: Clock,
  }),
  providerOf(DeleteAccountUseCase, {
    users: UserRepository,
    eraser: AccountDataEraser,
    unitOfWork: UnitOfWork,
    revocations: RevocationListener,
    clock: Clock,
    reauthentication: Reauthentication,
  }),
  providerOf(ViewAccountLimitsUseCase, [AccountLimitsReader]),
];

/** The identity context's controllers (the app's route walk and scope table read them before any app starts). */
export const IDENTITY_CONTROLLERS = [
  OAuthController,
  TokensController,
  OAuthClientsController,
  AccountController,
  EmailVerificationController,
  DashboardSessionController,
];

/**
 * The identity context's HTTP face: the OAuth endpoints and the authorization page, personal access tokens,
 * OAuth clients, the account and the e-mail verification pages, with their use cases built from the ports
 * the app binds. What the platform shares is the app's: the bearer authentication the access guard runs
 * (AuthenticateUseCase, with its cache of accepted tokens), the current-user cache (bound as a port), and
 * the operator CLI's use cases.
 */
@Module({
  controllers: IDENTITY_CONTROLLERS,
  providers: [
    ...PORTS,
    { provide: IdentitySettings, inject: [OPTIONS], useFactory: ({ settings }: IdentityModuleOptions) => settings },
    providerOf(RequestSigner, [IdentitySettings], (settings) => new RequestSigner(settings.authorizationSigningKey)),
    ...SERVICES,
    ...USE_CASES,
  ],
})
export class IdentityModule extends ConfigurableModuleClass {}
