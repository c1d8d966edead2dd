import { Body, Controller, Delete, Get, Inject, Param, Post, Query } from '@nestjs/common';
import type { Principal } from '@lnk/identity/domain';
import { CurrentPrincipal } from '../../auth/access.decorators';
import { IDENTITY } from '../../composition/contexts.module';
import type { Identity } from '../../composition/identity.composition';
import { ok, okPage } from '../../envelope/envelope';
import { PageQueryDto } from '../paging.request.dto';
import { CreateTokenDto } from './tokens.request.dto';
import { presentCreatedToken, presentTokenDetail, presentTokenListItem } from './tokens.presenter';

/** Personal access tokens (spec 4.2). */
@Controller('user/tokens')
export class TokensController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Get()
  async list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto) {
    const page = await this.identity.listPats.execute(principal, query.toPageRequest());
    return okPage({ ...page, items: page.items.map(presentTokenListItem) });
  }

  @Post()
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateTokenDto) {
    const { token, value } = await this.identity.createPat.execute(principal, { ...body, expiresAt: body.expiresAt ? new Date(body.expiresAt) : null });
    return ok(presentCreatedToken(token, value), 'Token created');
  }

  @Get(':id')
  async detail(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return ok(presentTokenDetail(await this.identity.getPat.execute(principal, id), new Date()));
  }

  @Delete(':id')
  async revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.identity.revokePat.execute(principal, id);
    return ok(undefined, 'Token revoked');
  }
}
