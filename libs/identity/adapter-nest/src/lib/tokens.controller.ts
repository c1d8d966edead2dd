import { Body, Controller, Ip, Param, Query } from '@nestjs/common';
import {
  CreatePersonalAccessTokenUseCase,
  GetPersonalAccessTokenUseCase,
  ListPersonalAccessTokensUseCase,
  type Principal,
  RevokeAllPersonalAccessTokensUseCase,
  RevokePersonalAccessTokenUseCase,
} from '@lnk/identity/domain';
import { CurrentPrincipal, Cursors, list, ok, PAGE_META, PageQueryDto, Route } from '@lnk/shared/http';
import {
  CreatedPersonalAccessTokenSchema,
  PersonalAccessTokenDetailSchema,
  PersonalAccessTokenSchema,
  RevokedTokensSchema,
} from './tokens.schemas';
import { CreateTokenDto } from './tokens.request.dto';
import { presentCreatedToken, presentTokenDetail, presentTokenListItem } from './tokens.presenter';

/** Personal access tokens (spec 4.2). */
@Controller('user/tokens')
export class TokensController {
  constructor(
    private readonly listPats: ListPersonalAccessTokensUseCase,
    private readonly createPat: CreatePersonalAccessTokenUseCase,
    private readonly revokeAllPats: RevokeAllPersonalAccessTokensUseCase,
    private readonly getPat: GetPersonalAccessTokenUseCase,
    private readonly revokePat: RevokePersonalAccessTokenUseCase,
    private readonly cursors: Cursors,
  ) {}

  @Route('GET', '', {
    operationId: 'listPersonalAccessTokens',
    scope: 'tokens:read',
    answers: list(PersonalAccessTokenSchema),
    meta: PAGE_META,
    summary: 'List your personal access tokens',
    description: 'Names, scopes and expiry; never the token values.',
  })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto) {
    const scope = { list: 'tokens', owner: principal.userId };
    return this.cursors.answer(query, scope, (request) => this.listPats.execute(principal, request), presentTokenListItem);
  }

  @Route('POST', '', {
    operationId: 'createPersonalAccessToken',
    idempotent: 'secret',
    scope: 'tokens:write',
    answers: CreatedPersonalAccessTokenSchema,
    reauthentication: true,
    summary: 'Create a personal access token',
    description:
      'The answer carries the token value (`tkn_…`) this once; store it. Scopes may not exceed those of the token making the request. ' +
      'It works until its `expiresAt` (none: until revoked); one made by an expiring personal access token ends no later than it. ' +
      'A sensitive action: `currentPassword` is required unless the token comes from a password or ' +
      'identity-provider sign-in in the last 10 minutes, so always from a personal access token ' +
      '(an account without a password signs in again with its identity provider). The account is told of every new token by mail. ' +
      'A token of a third-party application is refused (403 FORBIDDEN); an account holds at ' +
      'most PAT_LIMIT (100) active tokens (403 QUOTA_EXCEEDED with meta.limit).',
  })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateTokenDto, @Ip() ip: string) {
    const { currentPassword, expiresAt, ...fields } = body;
    const { token, value } = await this.createPat.execute(
      principal,
      { ...fields, expiresAt: expiresAt ? new Date(expiresAt) : null },
      { currentPassword, ip },
    );
    return ok(presentCreatedToken(token, value), 'Token created');
  }

  @Route('POST', 'revoke-all', {
    operationId: 'revokeAllPersonalAccessTokens',
    scope: 'tokens:delete',
    answers: RevokedTokensSchema,
    summary: 'Revoke all your personal access tokens',
    description:
      'Every personal access token of the account stops working at once, except the ' +
      'one making the request when a personal access token makes it ' +
      '(as DELETE /user/tokens/{id}, a request never revokes its own token: call it from ' +
      'a sign-in to end them all). Sessions (OAuth tokens) are not touched.',
  })
  async revokeAll(@CurrentPrincipal() principal: Principal) {
    const { revoked, keptTokenId } = await this.revokeAllPats.execute(principal);
    return ok({ revoked, keptTokenId }, revoked === 1 ? '1 token revoked' : `${revoked} tokens revoked`);
  }

  @Route('GET', ':id', {
    operationId: 'getPersonalAccessToken',
    scope: 'tokens:read',
    answers: PersonalAccessTokenDetailSchema,
    etag: true,
    summary: 'One personal access token',
    description: 'Its name, scopes and expiry, without the value.',
  })
  async detail(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return ok(presentTokenDetail(await this.getPat.execute(principal, id), new Date()));
  }

  @Route('DELETE', ':id', {
    operationId: 'revokePersonalAccessToken',
    scope: 'tokens:delete',
    answers: null,
    summary: 'Revoke a personal access token',
    description: 'The token stops working at once.',
  })
  async revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.revokePat.execute(principal, id);
    return ok(undefined, 'Token revoked');
  }
}
