import { NotFoundError } from '@lnk/shared/kernel';
import { PersonalAccessToken, Principal } from '../model/tokens';
import { PersonalAccessTokenRepository } from '../ports/token.repositories';

export class GetPersonalAccessTokenUseCase {
  constructor(private readonly pats: PersonalAccessTokenRepository) {}

  async execute(principal: Principal, id: string): Promise<PersonalAccessToken> {
    const token = await this.pats.findOfUser(principal.userId, id);
    if (!token) throw new NotFoundError('Token');
    return token;
  }
}
