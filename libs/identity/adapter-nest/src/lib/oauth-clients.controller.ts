import { Body, Controller, Param, Query } from '@nestjs/common';
import {
  CreateOAuthClientUseCase,
  DeleteOAuthClientUseCase,
  type OAuthClient,
  GetOAuthClientUseCase,
  ListOAuthClientsUseCase,
  type Principal,
  RegenerateClientSecretUseCase,
  UpdateOAuthClientUseCase,
} from '@lnk/identity/domain';
import {
  CurrentPrincipal,
  changeIfMatch,
  IfMatch,
  type IfMatchPrecondition,
  Cursors,
  searchKey,
  list,
  ok,
  PAGE_META,
  Route,
  SearchPageQueryDto,
} from '@lnk/shared/http';
import { OAuthClientSchema, RegeneratedClientSecretSchema } from './oauth-clients.schemas';
import { presentClient, presentRegeneratedSecret } from './oauth-clients.presenter';
import { CreateOAuthClientDto, UpdateOAuthClientDto } from './oauth-clients.request.dto';

/** OAuth clients a user registers (spec 4.2). */
@Controller('user/oauth-clients')
export class OAuthClientsController {
  constructor(
    private readonly listClients: ListOAuthClientsUseCase,
    private readonly createClient: CreateOAuthClientUseCase,
    private readonly getClient: GetOAuthClientUseCase,
    private readonly updateClient: UpdateOAuthClientUseCase,
    private readonly deleteClient: DeleteOAuthClientUseCase,
    private readonly regenerateClientSecret: RegenerateClientSecretUseCase,
    private readonly cursors: Cursors,
  ) {}

  @Route('GET', '', {
    operationId: 'listOAuthClients',
    scope: 'tokens:read',
    answers: list(OAuthClientSchema),
    meta: PAGE_META,
    summary: 'List your OAuth clients',
    description: 'The third-party applications you registered.',
  })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: SearchPageQueryDto) {
    const scope = { list: 'oauth-clients', owner: principal.userId, query: { q: searchKey(query.q) } };
    return this.cursors.answer(query, scope, (request) => this.listClients.execute(principal, query.q, request), presentClient);
  }

  @Route('POST', '', {
    operationId: 'createOAuthClient',
    scope: 'tokens:write',
    answers: OAuthClientSchema,
    idempotent: 'secret',
    summary: 'Register an OAuth client',
    description: 'The answer carries the client secret this once. Redirect URIs must match exactly in authorization requests.',
  })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateOAuthClientDto) {
    const { client, clientSecret } = await this.createClient.execute({
      ...body,
      ownerId: principal.userId,
      redirectUris: body.redirectUris ?? [],
      isFirstParty: false,
    });
    return ok(presentClient(client, clientSecret), 'OAuth client created');
  }

  @Route('GET', ':id', {
    operationId: 'getOAuthClient',
    scope: 'tokens:read',
    answers: OAuthClientSchema,
    etag: true,
    summary: 'One OAuth client',
    description: 'Its name, scopes, redirect URIs and state, without the secret.',
  })
  async detail(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return ok(presentClient(await this.getClient.execute(principal, id)));
  }

  @Route('PUT', ':id', {
    operationId: 'updateOAuthClient',
    scope: 'tokens:write',
    answers: OAuthClientSchema,
    etag: true,
    summary: 'Change an OAuth client',
    description: 'A partial update of name, description, scopes, redirect URIs and isActive.',
  })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdateOAuthClientDto,
    @IfMatch() precondition: IfMatchPrecondition,
  ) {
    const change = (expected?: (current: OAuthClient) => boolean) => this.updateClient.execute(principal, id, body, expected);
    const client = await changeIfMatch(precondition, {
      present: presentClient,
      change,
      current: () => this.getClient.execute(principal, id),
    });
    return ok(client, 'OAuth client updated');
  }

  @Route('DELETE', ':id', {
    operationId: 'deleteOAuthClient',
    scope: 'tokens:delete',
    answers: null,
    summary: 'Delete an OAuth client',
    description: 'The client and the tokens issued to it stop working.',
  })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.deleteClient.execute(principal, id);
    return ok(undefined, 'OAuth client deleted');
  }

  @Route('POST', ':id/regenerate-secret', {
    operationId: 'regenerateOAuthClientSecret',
    scope: 'tokens:write',
    answers: RegeneratedClientSecretSchema,
    summary: "Replace an OAuth client's secret",
    description: 'The new secret is in the answer this once; the old one stops working.',
  })
  async regenerateSecret(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const { client, clientSecret } = await this.regenerateClientSecret.execute(principal, id);
    return ok(presentRegeneratedSecret(client, clientSecret), 'Client secret regenerated');
  }
}
