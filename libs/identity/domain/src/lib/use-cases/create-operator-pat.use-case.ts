import { Clock, found, ValidationError } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { PersonalAccessToken } from '../model/tokens';
import { UserRepository } from '../ports/user.repository';
import { checkFutureExpiry, checkPatFields, mintPat, PatMint } from '../services/personal-access-token-mint';
import { CreatePatCommand } from './personal-access-token.types';

/**
 * A PAT the operator (the CLI on the server) makes for an account: the operator holds the database and
 * vouches for the account, so no token's scopes or lifetime bound it, no password is asked, and no mail
 * is sent (as for the operator's other changes of an account). It carries exactly the scopes named and
 * ends when `expiresAt` says, or never. Same checks on name, scopes and expiry, and the same bound on an
 * account's active PATs, as any PAT; only an active account gets one.
 */
export class CreateOperatorPatUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly mint: PatMint,
    private readonly clock: Clock,
  ) {}

  async execute(ownerEmail: string, command: CreatePatCommand): Promise<{ token: PersonalAccessToken; value: string }> {
    const owner = found(await this.users.findByEmail(normalizeEmail(ownerEmail, 'owner')), `User ${ownerEmail}`);
    if (!owner.isActive) throw ValidationError.field('owner', 'the account is deactivated');
    const fields = checkPatFields(command);
    const now = this.clock.now();
    checkFutureExpiry(command.expiresAt, now);
    return mintPat(this.mint, owner.id, fields, command.expiresAt ?? null, now);
  }
}
