import { Body, Controller, Delete, Get, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { Principal } from '@lnk/identity/domain';
import { dnsRecordFor, type Domain } from '@lnk/domains/domain';
import { CurrentPrincipal } from '../../auth/access.decorators';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DOMAINS } from '../../composition/contexts.module';
import type { Domains } from '../../composition/contexts.composition';
import { ok, okPage } from '../../envelope/envelope';
import { SearchPageQueryDto } from '../paging.request.dto';

@JSONSchema({ example: { name: 'links.example.com' } })
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

  @ApiOperation({ summary: 'List your custom domains', description: 'Each with its verification state and the DNS record that proves it is yours.' })
  @Get()
  async list(@CurrentPrincipal() principal: Principal, @Query() query: SearchPageQueryDto) {
    const page = await this.domains.list.execute(principal.userId, query.q, query.toPageRequest());
    return okPage({ ...page, items: page.items.map((d) => this.present(d)) });
  }

  @ApiOperation({ summary: 'Add a custom domain', description: 'Answers the DNS TXT record to publish; links may use the domain once it is verified.' })
  @Post()
  async add(@CurrentPrincipal() principal: Principal, @Body() body: AddDomainDto) {
    const domain = await this.domains.add.execute(principal.userId, body.name);
    return ok(this.present(domain), `Domain added: create the DNS records ${dnsRecordFor(this.config.dnsTarget)} and TXT ${domain.challengeName}, then verify`);
  }

  @ApiOperation({ summary: 'Verify a custom domain', description: 'Looks up the DNS TXT record now; the domain is verified when it is found.' })
  @Post(':id/verify')
  async verify(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const domain = await this.domains.verify.execute(principal.userId, id);
    return ok({ id: domain.id, name: domain.name, isVerified: domain.isVerified, verifiedAt: domain.verifiedAt?.toISOString() ?? null }, 'Domain verified');
  }

  @ApiOperation({ summary: 'Delete a custom domain', description: 'Refused while links still use the domain: move or delete them first.' })
  @Delete(':id')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.domains.delete.execute(principal.userId, id);
    return ok(undefined, 'Domain deleted');
  }
}
