import { Clock, IdGenerator, UnauthorizedError, UnitOfWork } from '@lnk/shared/kernel';
import { OAuthClient } from '../model/oauth-client.entity';
import { OAuthError, TwoFactorRequiredError } from '../model/oauth-error';
import { User } from '../model/user.entity';
import { IdTokenVerifier, VerifiedIdentity } from '../ports/id-token-verifier';
import { IdpIdentityRepository } from '../ports/idp-identity.repository';
import { LoginThrottle, loginThrottleKeys } from '../ports/login-throttle';
import { UserRepository } from '../ports/user.repository';
import { ClientAuthenticator } from '../services/client-authenticator';
import { AddressClaims } from '../services/email-address';
import { SecondFactor } from '../services/second-factor';
import { IssuedTokens, TokenIssuer } from '../services/token-issuer';

export interface IdpSignInCommand {
  idToken?: string;
  clientId?: string;
  /** The second factor, for accounts that have it on (as in the password grant). */
  otp?: string;
  /** The caller's address, for throttling wrong one-time codes. */
  ip: string;
}

/**
 * What signing in through an identity provider needs: the ID token's verifier, the accounts and their linked identities, the second factor,
 * the throttle, and the issuer.
 */
export interface ExternalSignIn {
  verifier: IdTokenVerifier;
  clients: ClientAuthenticator;
  users: UserRepository;
  identities: IdpIdentityRepository;
  claims: AddressClaims;
  secondFactor: SecondFactor;
  throttle: LoginThrottle;
  unitOfWork: UnitOfWork;
  issuer: TokenIssuer;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * Signs in with an identity provider's ID token. The provider's account (issuer and subject) enters the
 * account it is linked to. Unlinked, it enters the account whose address it has verified only if that
 * account has verified the address too and was made with it, and is then linked to it. An account holding
 * the address unverified is never entered: it loses the address (an unverified address reserves nothing)
 * and the provider's user gets a new account, verified, without a password. An account that took the
 * address by a change is never joined automatically, even verified (its owner may have talked the
 * mailbox's owner into confirming it): the sign-in is refused, and that account's own sign-in stays the
 * way in. Accounts with two-factor sign-in need `otp`. The token gets every scope of the client.
 */
export class IdpSignInUseCase {
  constructor(private readonly deps: ExternalSignIn) {}

  async execute(command: IdpSignInCommand): Promise<{ user: User; tokens: IssuedTokens }> {
    const client = await this.deps.clients.authenticate(command.clientId, undefined, { mustAuthenticate: false });
    const identity = command.idToken ? await this.deps.verifier.verify(command.idToken) : null;
    if (!identity || !identity.emailVerified) throw new UnauthorizedError('The identity token is not valid for any configured provider');

    const existing = await this.existingAccount(identity);
    if (existing) {
      const { user, linked } = existing;
      this.mayEnter(client, user);
      await this.checkSecondFactor(user, command);
      if (!linked)
        await this.deps.identities.link({
          issuer: identity.issuer,
          subject: identity.subject,
          userId: user.id,
          createdAt: this.deps.clock.now(),
        });
      return { user, tokens: await this.issue(user, client) };
    }
    // A client a user made signs in only its owner, who cannot be an account not made yet.
    if (!client.isFirstParty) throw new UnauthorizedError('This client may sign in only the account that owns it');
    let user: User;
    try {
      user = await this.createAccount(identity);
    } catch (error) {
      // The same person signing in twice at once: the other sign-in made the account a moment ago.
      const made = await this.existingAccount(identity);
      if (!made?.linked) throw error;
      user = made.user;
      this.mayEnter(client, user);
      await this.checkSecondFactor(user, command);
    }
    return { user, tokens: await this.issue(user, client) };
  }

  /** The account linked to the provider's account, or the one that has verified the same address. */
  private async existingAccount(identity: VerifiedIdentity): Promise<{ user: User; linked: boolean } | null> {
    const linkedId = await this.deps.identities.findUserId(identity.issuer, identity.subject);
    const linked = linkedId ? await this.deps.users.findById(linkedId) : null;
    if (linked) return { user: linked, linked: true };
    const holder = await this.deps.users.findByEmail(identity.email);
    if (!holder?.isVerified) return null;
    if (holder.emailCameFromChange) {
      throw new UnauthorizedError(
        'An account of this service took this address by changing its own, so a sign-in with your identity provider is not joined to it. ' +
          'If it is yours, sign in to it with its password',
      );
    }
    return { user: holder, linked: false };
  }

  private mayEnter(client: OAuthClient, user: User): void {
    if (!user.isActive) throw new UnauthorizedError('The account is disabled');
    if (!client.maySignIn(user.id)) throw new UnauthorizedError('This client may sign in only the account that owns it');
  }

  /** As the password grant does: missing → TWO_FACTOR_REQUIRED, wrong → invalid_grant, counted by the throttle. */
  private async checkSecondFactor(user: User, command: IdpSignInCommand): Promise<void> {
    if (!user.isTwoFactorEnabled) return;
    if (!command.otp) throw new TwoFactorRequiredError();
    const attempt = await this.deps.throttle.admit(loginThrottleKeys(user.email, this.deps.throttle.addressKey(command.ip)));
    let valid: boolean;
    try {
      valid = await this.deps.secondFactor.verify(user, command.otp);
    } catch (error) {
      attempt.withdraw(); // a fault, not a wrong code
      throw error;
    }
    if (!valid) throw new OAuthError('invalid_grant', 'Invalid one-time code');
    attempt.succeeded();
  }

  private createAccount(identity: VerifiedIdentity): Promise<User> {
    return this.deps.unitOfWork.run(async () => {
      const now = this.deps.clock.now();
      // Only an unverified holder can be left (a verified one was entered above): it loses the address,
      // and other accounts' requests for it are withdrawn.
      if (!(await this.deps.claims.claim(identity.email, null))) throw new UnauthorizedError('The account could not be created');
      const user = new User({
        id: this.deps.ids.next(),
        email: identity.email,
        name: (identity.name ?? '').slice(0, 100),
        passwordHash: null,
        isVerified: true,
        isActive: true,
        twoFactorSecret: null,
        createdAt: now,
        updatedAt: now,
      });
      await this.deps.users.insert(user);
      if (!(await this.deps.identities.link({ issuer: identity.issuer, subject: identity.subject, userId: user.id, createdAt: now }))) {
        throw new UnauthorizedError('The account could not be created');
      }
      return user;
    });
  }

  private issue(user: User, client: OAuthClient): Promise<IssuedTokens> {
    return this.deps.issuer.issue({ userId: user.id, clientId: client.id, scopes: client.scopes, signedIn: true });
  }
}
