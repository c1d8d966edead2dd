import { Body, Controller, Inject, Param, Query } from '@nestjs/common';
import type { Principal } from '@lnk/identity/domain';
import { addressRecordsFor, dnsRecordFor } from '@lnk/domains/domain';
import { CurrentPrincipal, list, ok, okPage, PAGE_META, Route, SearchPageQueryDto } from '@lnk/shared/http';
import { DomainSchema, VerifiedDomainSchema } from './domains.schemas';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DOMAINS } from '../../composition/contexts.module';
import type { Domains } from '../../composition/contexts.composition';
import { AddDomainDto } from './domains.request.dto';
import { presentDomain, presentVerifiedDomain } from './domains.presenter';

/** Custom domains (spec 4.6), with delete. */
@Controller('user/domain')
export class DomainsController {
  constructor(
    @Inject(DOMAINS) private readonly domains: Domains,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Route('GET', '', { operationId: 'listDomains', scope: 'domains:read', answers: list(DomainSchema), meta: PAGE_META, summary: 'List your custom domains', description: 'Each with its verification state and the DNS record that proves it is yours.' })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: SearchPageQueryDto) {
    const page = await this.domains.list.execute(principal.userId, query.q, query.toPageRequest());
    return okPage({ ...page, items: page.items.map((d) => presentDomain(d, this.config)) });
  }

  @Route('POST', '', { operationId: 'addDomain', scope: 'domains:write', answers: DomainSchema, summary: 'Add a custom domain', description: 'Answers the DNS TXT record to publish; links may use the domain once it is verified.' })
  async add(@CurrentPrincipal() principal: Principal, @Body() body: AddDomainDto) {
    const domain = await this.domains.add.execute(principal.userId, body.name);
    const addresses = addressRecordsFor(this.config.dnsTargetAddresses).map((r) => `${r.type} ${r.value}`);
    const apex = addresses.length ? ` (or, at a zone apex, ${addresses.join(' and ')})` : '';
    const records = `${dnsRecordFor(this.config.dnsTarget)}${apex} and TXT ${domain.challengeName}`;
    return ok(presentDomain(domain, this.config), `Domain added: create the DNS records ${records}, then verify`);
  }

  @Route('POST', ':id/verify', {
    operationId: 'verifyDomain',
    scope: 'domains:write',
    answers: VerifiedDomainSchema,
    summary: 'Verify a custom domain',
    description: 'Looks up the DNS records now (the TXT challenge, and the CNAME or the address records); the domain is verified when they are found.',
  })
  async verify(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const domain = await this.domains.verify.execute(principal.userId, id);
    return ok(presentVerifiedDomain(domain), 'Domain verified');
  }

  @Route('DELETE', ':id', { operationId: 'deleteDomain', scope: 'domains:write', answers: null, summary: 'Delete a custom domain', description: 'Refused while links still use the domain: move or delete them first.' })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.domains.delete.execute(principal.userId, id);
    return ok(undefined, 'Domain deleted');
  }
}
