import { Body, Controller, Inject, Param, Query } from '@nestjs/common';
import type { Principal } from '@lnk/identity/domain';
import { CurrentPrincipal } from '../../auth/access.decorators';
import { list } from '../../openapi/schema';
import { PAGE_META } from '../../openapi/response-schemas';
import { CreatedPersonalAccessTokenSchema, PersonalAccessTokenDetailSchema, PersonalAccessTokenSchema } from './tokens.schemas';
import { IDENTITY } from '../../composition/contexts.module';
import type { Identity } from '../../composition/identity.composition';
import { ok, okPage } from '../../envelope/envelope';
import { PageQueryDto } from '../paging.request.dto';
import { CreateTokenDto } from './tokens.request.dto';
import { presentCreatedToken, presentTokenDetail, presentTokenListItem } from './tokens.presenter';
import { Route } from '../route.decorator';

/** Personal access tokens (spec 4.2). */
@Controller('user/tokens')
export class TokensController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Route('GET', '', { operationId: 'listPersonalAccessTokens', scope: 'tokens:read', answers: list(PersonalAccessTokenSchema), meta: PAGE_META, summary: 'List your personal access tokens', description: 'Names, scopes and expiry; never the token values.' })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto) {
    const page = await this.identity.listPats.execute(principal, query.toPageRequest());
    return okPage({ ...page, items: page.items.map(presentTokenListItem) });
  }

  @Route('POST', '', { operationId: 'createPersonalAccessToken', scope: 'tokens:write', answers: CreatedPersonalAccessTokenSchema, summary: 'Create a personal access token', description: 'The answer carries the token value (`tkn_…`) this once; store it. Scopes may not exceed those of the token making the request.' })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateTokenDto) {
    const { token, value } = await this.identity.createPat.execute(principal, { ...body, expiresAt: body.expiresAt ? new Date(body.expiresAt) : null });
    return ok(presentCreatedToken(token, value), 'Token created');
  }

  @Route('GET', ':id', { operationId: 'getPersonalAccessToken', scope: 'tokens:read', answers: PersonalAccessTokenDetailSchema, summary: 'One personal access token', description: 'Its name, scopes and expiry, without the value.' })
  async detail(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return ok(presentTokenDetail(await this.identity.getPat.execute(principal, id), new Date()));
  }

  @Route('DELETE', ':id', { operationId: 'revokePersonalAccessToken', scope: 'tokens:delete', answers: null, summary: 'Revoke a personal access token', description: 'The token stops working at once.' })
  async revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.identity.revokePat.execute(principal, id);
    return ok(undefined, 'Token revoked');
  }
}
