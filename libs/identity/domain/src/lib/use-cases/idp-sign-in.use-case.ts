import { Clock, IdGenerator, UnauthorizedError } from '@lnk/shared/kernel';
import { User } from '../model/user.entity';
import { IdTokenVerifier } from '../ports/id-token-verifier';
import { UserRepository } from '../ports/user.repository';
import { ClientAuthenticator } from './client-authenticator';
import { IssuedTokens, TokenIssuer } from './token-issuer';

/**
 * Signs in with an identity provider's ID token: the account with the verified e-mail, created on first
 * sign-in (verified, without a password). The token gets every scope of the client.
 */
export class IdpSignInUseCase {
  constructor(
    private readonly verifier: IdTokenVerifier,
    private readonly clients: ClientAuthenticator,
    private readonly users: UserRepository,
    private readonly issuer: TokenIssuer,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: { idToken?: string; clientId?: string }): Promise<{ user: User; tokens: IssuedTokens }> {
    const client = await this.clients.authenticate(command.clientId, undefined, { mustAuthenticate: false });
    const identity = command.idToken ? await this.verifier.verify(command.idToken) : null;
    if (!identity || !identity.emailVerified) throw new UnauthorizedError('The identity token is not valid for any configured provider');
    const now = this.clock.now();
    let user = await this.users.findByEmail(identity.email);
    if (!user) {
      user = new User({
        id: this.ids.next(),
        email: identity.email,
        name: (identity.name ?? '').slice(0, 100),
        passwordHash: null,
        isVerified: true,
        isActive: true,
        twoFactorSecret: null,
        createdAt: now,
        updatedAt: now,
      });
      try {
        await this.users.insert(user);
      } catch {
        // Created by a concurrent sign-in a moment ago.
        user = await this.users.findByEmail(identity.email);
        if (!user) throw new UnauthorizedError('The account could not be created');
      }
    } else if (!user.isVerified && user.confirmEmail(identity.email, now)) {
      await this.users.update(user);
    }
    if (!user.isActive) throw new UnauthorizedError('The account is disabled');
    if (!client.maySignIn(user.id)) throw new UnauthorizedError('This client may sign in only the account that owns it');
    return { user, tokens: await this.issuer.issue({ userId: user.id, clientId: client.id, scopes: client.scopes }) };
  }
}
