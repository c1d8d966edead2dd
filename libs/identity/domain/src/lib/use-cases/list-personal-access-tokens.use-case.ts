import { Page, PageRequest } from '@lnk/shared/kernel';
import { PersonalAccessToken, Principal } from '../model/tokens';
import { PersonalAccessTokenRepository } from '../ports/token.repositories';

export class ListPersonalAccessTokensUseCase {
  constructor(private readonly pats: PersonalAccessTokenRepository) {}

  execute(principal: Principal, page: PageRequest): Promise<Page<PersonalAccessToken>> {
    return this.pats.listOfUser(principal.userId, page);
  }
}
