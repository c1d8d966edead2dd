import { Clock, UnauthorizedError } from '@lnk/shared/kernel';
import { kindOf, Principal } from '../model/tokens';
import { BearerPrincipals } from '../ports/bearer-principals';
import { PatUses } from '../ports/pat-uses';
import { SecretHasher } from '../ports/secret-hasher';

/**
 * Turns a bearer token (OAuth access token or PAT) into a principal: the token's hash looked up through
 * `principals` (the composition puts a cache in front, emptied by revocations), and a PAT's use recorded
 * without holding up the request (the composition bounds those writes to one per token per interval).
 */
export class AuthenticateUseCase {
  constructor(
    private readonly principals: BearerPrincipals,
    private readonly patUses: PatUses,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  async execute(bearer: string | undefined): Promise<Principal> {
    const kind = bearer ? kindOf(bearer) : null;
    if (!bearer || bearer.length > 256 || (kind !== 'access_token' && kind !== 'personal_access_token')) throw new UnauthorizedError();
    const now = this.clock.now();
    const accepted = await this.principals.accepted(this.hasher.hash(bearer), kind, now);
    if (!accepted) throw new UnauthorizedError('The access token is invalid, expired or revoked');
    const { principal } = accepted;
    // lastUsedAt is a record, not a check: a failed write fails no request.
    if (principal.via === 'pat') this.patUses.touch(principal.tokenId, now).catch(() => undefined);
    return principal;
  }
}
