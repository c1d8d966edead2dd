import { Body, Controller, Param, Query } from '@nestjs/common';
import {
  AddDomainUseCase,
  addressRecordsFor,
  DeleteDomainUseCase,
  dnsRecordFor,
  ListDomainsUseCase,
  VerifyDomainUseCase,
} from '@lnk/domains/domain';
import { type Caller, CurrentPrincipal, Cursors, searchKey, list, ok, PAGE_META, Route, SearchPageQueryDto } from '@lnk/shared/http';
import { DomainSchema, VerifiedDomainSchema } from './domains.schemas';
import { DomainsSettings } from './domains.settings';
import { AddDomainDto } from './domains.request.dto';
import { presentDomain, presentVerifiedDomain } from './domains.presenter';

/** Custom domains (spec 4.6), with delete. */
@Controller('user/domain')
export class DomainsController {
  constructor(
    private readonly listDomains: ListDomainsUseCase,
    private readonly addDomain: AddDomainUseCase,
    private readonly verifyDomain: VerifyDomainUseCase,
    private readonly deleteDomain: DeleteDomainUseCase,
    private readonly settings: DomainsSettings,
    private readonly cursors: Cursors,
  ) {}

  @Route('GET', '', {
    operationId: 'listDomains',
    scope: 'domains:read',
    answers: list(DomainSchema),
    meta: PAGE_META,
    summary: 'List your custom domains',
    description: 'Each with its verification state and the DNS record that proves it is yours.',
  })
  async list(@CurrentPrincipal() caller: Caller, @Query() query: SearchPageQueryDto) {
    const scope = { list: 'domains', owner: caller.userId, query: { q: searchKey(query.q) } };
    return this.cursors.answer(
      query,
      scope,
      (request) => this.listDomains.execute(caller.userId, query.q, request),
      (d) => presentDomain(d, this.settings),
    );
  }

  @Route('POST', '', {
    operationId: 'addDomain',
    scope: 'domains:write',
    answers: DomainSchema,
    idempotent: 'replays',
    summary: 'Add a custom domain',
    description: 'Answers the DNS TXT record to publish; links may use the domain once it is verified.',
  })
  async add(@CurrentPrincipal() caller: Caller, @Body() body: AddDomainDto) {
    const domain = await this.addDomain.execute(caller.userId, body.name);
    const addresses = addressRecordsFor(this.settings.dnsTargetAddresses).map((r) => `${r.type} ${r.value}`);
    const apex = addresses.length ? ` (or, at a zone apex, ${addresses.join(' and ')})` : '';
    const records = `${dnsRecordFor(this.settings.dnsTarget)}${apex} and TXT ${domain.challengeName}`;
    return ok(presentDomain(domain, this.settings), `Domain added: create the DNS records ${records}, then verify`);
  }

  @Route('POST', ':id/verify', {
    operationId: 'verifyDomain',
    scope: 'domains:write',
    answers: VerifiedDomainSchema,
    summary: 'Verify a custom domain',
    description:
      'Looks up the DNS records now (the TXT challenge, and the CNAME or the address records); the domain is verified when they are found.',
  })
  async verify(@CurrentPrincipal() caller: Caller, @Param('id') id: string) {
    const domain = await this.verifyDomain.execute(caller.userId, id);
    return ok(presentVerifiedDomain(domain), 'Domain verified');
  }

  @Route('DELETE', ':id', {
    operationId: 'deleteDomain',
    scope: 'domains:write',
    answers: null,
    summary: 'Delete a custom domain',
    description: 'Refused while links still use the domain: move or delete them first.',
  })
  async remove(@CurrentPrincipal() caller: Caller, @Param('id') id: string) {
    await this.deleteDomain.execute(caller.userId, id);
    return ok(undefined, 'Domain deleted');
  }
}
