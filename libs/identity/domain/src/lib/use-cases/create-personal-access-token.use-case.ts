import { Clock, ForbiddenError, ValidationError } from '@lnk/shared/kernel';
import { PersonalAccessToken, Principal } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';
import { checkFutureExpiry, checkPatFields, mintPat, PatMint } from '../services/personal-access-token-mint';
import { OwnerProof, Reauthentication } from '../services/reauthentication';
import { PersonalAccessTokenNotices } from '../services/token-notices';
import { CreatePatCommand } from './personal-access-token.types';

export interface PatCreation {
  mint: PatMint;
  clients: OAuthClientRepository;
  users: UserRepository;
  reauthentication: Reauthentication;
  notices: PersonalAccessTokenNotices;
  clock: Clock;
}

/**
 * Creates a PAT with at most the scopes of the token creating it. A PAT lives until its `expiresAt` or
 * its revocation (spec 2.4): one made through a sign-in does not end with that session, and has no
 * expiry unless asked for. So that a stolen session (or PAT) cannot leave behind a credential that
 * outlives it unnoticed, minting is a sensitive action, as an e-mail change is (a sign-in in the last
 * ten minutes, or `currentPassword`; a PAT never counts as a sign-in), and the account is told by mail
 * of every new PAT. A PAT made by an expiring PAT still ends no later than it. Only the service's own
 * (first-party) clients may make PATs: a third-party app granted `tokens:write` would otherwise turn
 * its revocable grant into a credential that outlives it. An account holds a bounded number of PATs.
 */
export class CreatePersonalAccessTokenUseCase {
  constructor(private readonly d: PatCreation) {}

  async execute(
    principal: Principal,
    command: CreatePatCommand,
    proof: OwnerProof,
  ): Promise<{ token: PersonalAccessToken; value: string }> {
    const fields = checkPatFields(command);
    const beyond = fields.scopes.filter((s) => !principal.scopes.includes(s));
    if (beyond.length) throw ValidationError.field('scopes', `scopes beyond those of the token making the request: ${beyond.join(', ')}`);
    if (principal.via === 'oauth') {
      const client = principal.clientId ? await this.d.clients.findById(principal.clientId) : null;
      if (!client?.isFirstParty)
        throw new ForbiddenError('A token issued to a third-party application cannot create personal access tokens');
    }
    const now = this.d.clock.now();
    checkFutureExpiry(command.expiresAt, now);
    const parentExpiry = principal.via === 'pat' ? principal.grantExpiresAt : null;
    if (command.expiresAt && parentExpiry && command.expiresAt > parentExpiry) {
      throw ValidationError.field(
        'expiresAt',
        `expiresAt must not be later than ${parentExpiry.toISOString()}, when the token making the request expires`,
      );
    }
    const user = await currentUser(this.d.users, principal);
    await this.d.reauthentication.confirm(user, principal, proof);
    const created = await mintPat(this.d.mint, user.id, fields, command.expiresAt ?? parentExpiry, now);
    try {
      await this.d.notices.created(user, created.token, proof.ip);
    } catch (error) {
      // No PAT the owner was not told of: one whose notice could not be sent is taken back (its value was never shown).
      await this.d.mint.pats.deleteOfUser(user.id, created.token.props.id);
      throw error;
    }
    return created;
  }
}
