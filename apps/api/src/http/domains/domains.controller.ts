import { Body, Controller, Delete, Get, Inject, Param, Post, Query } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import type { Principal } from '@lnk/identity/domain';
import { dnsRecordFor, type Domain } from '@lnk/domains/domain';
import { CurrentPrincipal } from '../../auth/access.decorators';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DOMAINS } from '../../composition/contexts.module';
import type { Domains } from '../../composition/contexts.composition';
import { ok, okPage } from '../../envelope/envelope';
import { SearchPageQueryDto } from '../paging.request.dto';

export class AddDomainDto {
  @IsString() @MaxLength(300) name!: string;
}

/** Custom domains (spec 4.6), with delete. */
@Controller('user/domain')
export class DomainsController {
  constructor(
    @Inject(DOMAINS) private readonly domains: Domains,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private present(domain: Domain) {
    return {
      id: domain.id,
      name: domain.name,
      isVerified: domain.isVerified,
      createdAt: domain.createdAt.toISOString(),
      dnsRecord: dnsRecordFor(this.config.dnsTarget),
      // Proof that this account controls the name: the value is this account's own, published in DNS.
      verification: { type: 'TXT', name: domain.challengeName, value: domain.challenge },
      verifiedAt: domain.verifiedAt ? domain.verifiedAt.toISOString() : null,
      verificationLostAt: domain.verificationLostAt ? domain.verificationLostAt.toISOString() : null,
      verificationLostReason: domain.verificationLostReason,
    };
  }

  @Get()
  async list(@CurrentPrincipal() principal: Principal, @Query() query: SearchPageQueryDto) {
    const page = await this.domains.list.execute(principal.userId, query.q, query.toPageRequest());
    return okPage({ ...page, items: page.items.map((d) => this.present(d)) });
  }

  @Post()
  async add(@CurrentPrincipal() principal: Principal, @Body() body: AddDomainDto) {
    const domain = await this.domains.add.execute(principal.userId, body.name);
    return ok(this.present(domain), `Domain added: create the DNS records ${dnsRecordFor(this.config.dnsTarget)} and TXT ${domain.challengeName}, then verify`);
  }

  @Post(':id/verify')
  async verify(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const domain = await this.domains.verify.execute(principal.userId, id);
    return ok({ id: domain.id, name: domain.name, isVerified: domain.isVerified, verifiedAt: domain.verifiedAt?.toISOString() ?? null }, 'Domain verified');
  }

  @Delete(':id')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.domains.delete.execute(principal.userId, id);
    return ok(undefined, 'Domain deleted');
  }
}
