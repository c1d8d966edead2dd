import { found } from '@lnk/shared/kernel';
import { PersonalAccessToken, Principal } from '../model/tokens';
import { PersonalAccessTokenRepository } from '../ports/token.repositories';

export class GetPersonalAccessTokenUseCase {
  constructor(private readonly pats: PersonalAccessTokenRepository) {}

  async execute(principal: Principal, id: string): Promise<PersonalAccessToken> {
    return found(await this.pats.findOfUser(principal.userId, id), 'Token');
  }
}
