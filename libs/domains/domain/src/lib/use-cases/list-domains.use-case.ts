import { Page, PageRequest } from '@lnk/shared/kernel';
import { Domain } from '../model/domain.entity';
import { DomainRepository } from '../ports/domain.repository';

export class ListDomainsUseCase {
  constructor(private readonly domains: DomainRepository) {}

  execute(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<Domain>> {
    return this.domains.listOfOwner(ownerId, query?.trim() || undefined, page);
  }
}
