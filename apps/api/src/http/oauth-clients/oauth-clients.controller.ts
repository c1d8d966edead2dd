import { Body, Controller, Delete, Get, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Principal } from '@lnk/identity/domain';
import { CurrentPrincipal, RequireScope } from '../../auth/access.decorators';
import { Responds } from '../../openapi/responds.decorator';
import { list } from '../../openapi/schema';
import { PAGE_META } from '../../openapi/response-schemas';
import { OAuthClientSchema, RegeneratedClientSecretSchema } from './oauth-clients.schemas';
import { IDENTITY } from '../../composition/contexts.module';
import type { Identity } from '../../composition/identity.composition';
import { ok, okPage } from '../../envelope/envelope';
import { presentClient, presentRegeneratedSecret } from './oauth-clients.presenter';
import { SearchPageQueryDto } from '../paging.request.dto';
import { CreateOAuthClientDto, UpdateOAuthClientDto } from './oauth-clients.request.dto';

/** OAuth clients a user registers (spec 4.2). */
@Controller('user/oauth-clients')
export class OAuthClientsController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @ApiOperation({ summary: 'List your OAuth clients', description: 'The third-party applications you registered.' })
  @Get()
  @RequireScope('tokens:read')
  @Responds(list(OAuthClientSchema), { meta: PAGE_META })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: SearchPageQueryDto) {
    const page = await this.identity.listClients.execute(principal, query.q, query.toPageRequest());
    return okPage({ ...page, items: page.items.map((c) => presentClient(c)) });
  }

  @ApiOperation({ summary: 'Register an OAuth client', description: 'The answer carries the client secret this once. Redirect URIs must match exactly in authorization requests.' })
  @Post()
  @RequireScope('tokens:write')
  @Responds(OAuthClientSchema)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateOAuthClientDto) {
    const { client, clientSecret } = await this.identity.createOAuthClient.execute({ ...body, ownerId: principal.userId, redirectUris: body.redirectUris ?? [], isFirstParty: false });
    return ok(presentClient(client, clientSecret), 'OAuth client created');
  }

  @ApiOperation({ summary: 'One OAuth client', description: 'Its name, scopes, redirect URIs and state, without the secret.' })
  @Get(':id')
  @RequireScope('tokens:read')
  @Responds(OAuthClientSchema)
  async detail(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return ok(presentClient(await this.identity.getClient.execute(principal, id)));
  }

  @ApiOperation({ summary: 'Change an OAuth client', description: 'A partial update of name, description, scopes, redirect URIs and isActive.' })
  @Put(':id')
  @RequireScope('tokens:write')
  @Responds(OAuthClientSchema)
  async update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateOAuthClientDto) {
    return ok(presentClient(await this.identity.updateClient.execute(principal, id, body)), 'OAuth client updated');
  }

  @ApiOperation({ summary: 'Delete an OAuth client', description: 'The client and the tokens issued to it stop working.' })
  @Delete(':id')
  @RequireScope('tokens:delete')
  @Responds(null)
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.identity.deleteClient.execute(principal, id);
    return ok(undefined, 'OAuth client deleted');
  }

  @ApiOperation({ summary: 'Replace an OAuth client\'s secret', description: 'The new secret is in the answer this once; the old one stops working.' })
  @Post(':id/regenerate-secret')
  @RequireScope('tokens:write')
  @Responds(RegeneratedClientSecretSchema)
  async regenerateSecret(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const { client, clientSecret } = await this.identity.regenerateClientSecret.execute(principal, id);
    return ok(presentRegeneratedSecret(client, clientSecret), 'Client secret regenerated');
  }
}
