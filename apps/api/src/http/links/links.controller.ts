import { Body, Controller, Inject, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Principal } from '@lnk/identity/domain';
import type { LinkListAnswer } from '@lnk/links/domain';
import { CurrentPrincipal } from '../../auth/access.decorators';
import { binary, list, string } from '../../openapi/schema';
import { DeletedSchema, PAGE_META } from '../../openapi/response-schemas';
import { LinkListItemSchema, LinkSchema, TagSchema } from './links.schemas';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { LINKS } from '../../composition/contexts.module';
import type { Links } from '../../composition/contexts.composition';
import { ok, okPage, SerializedOk, serializedOk } from '../../envelope/envelope';
import { RateLimitBudget } from '../../rate-limit/rate-limit.guard';
import { QrRenderer } from './qr-renderer';
import { CreateLinkDto, CreateTagDto, LinkListQueryDto, QrQueryDto, UpdateLinkDto, UpdateTagDto } from './links.request.dto';
import { SearchPageQueryDto } from '../paging.request.dto';
import { presentLink, presentLinkListItem, presentTag } from './links.presenter';
import { CurrentScheme, type RequestScheme, type ShortUrlBase, ShortUrlBases } from './short-url-base';
import { Route } from '../route.decorator';
import { QR_MARKER_PARAM } from '@lnk/links/domain';

type PresentedList = ReturnType<typeof presentLinkListItem>[];

/** Short links (spec 4.5). */
@Controller('user/link')
export class LinksController {
  private readonly bases: ShortUrlBases;

  constructor(
    @Inject(LINKS) private readonly links: Links,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly qrCodes: QrRenderer,
  ) {
    this.bases = new ShortUrlBases(config);
  }

  /**
   * The JSON of the list answers the list cache shares (frozen): gone with them. One map per short-URL
   * base: with CUSTOM_DOMAIN_SCHEME=request an answer's JSON differs by the request's scheme.
   */
  private readonly presentedLists = new Map<ShortUrlBase, WeakMap<LinkListAnswer, SerializedOk<PresentedList>>>();

  @Route('GET', '', { operationId: 'listLinks', scope: 'links:read', answers: list(LinkListItemSchema), meta: PAGE_META, summary: 'List your links', description: 'Newest first, paged with start and limit; q searches title, slug and URL; expired=true|false keeps only the expired links or only the others.' })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: LinkListQueryDto, @CurrentScheme() scheme: RequestScheme) {
    const filter = query.expired === undefined ? {} : { expired: query.expired === 'true' };
    const answer = await this.links.list.execute(principal.userId, query.q, query.toPageRequest(), filter);
    const base = this.bases.of(scheme);
    let presentedLists = this.presentedLists.get(base);
    if (!presentedLists) this.presentedLists.set(base, (presentedLists = new WeakMap()));
    // A cached answer (frozen, shared) comes back as the same object: presented and serialised once per
    // base, while the list cache holds it.
    const presented = presentedLists.get(answer);
    if (presented) return presented;
    const { page, domainNames } = answer;
    const body = okPage({ ...page, items: page.items.map((l) => presentLinkListItem(l, base, domainNames)) });
    if (!Object.isFrozen(answer)) return body;
    const serialized = serializedOk(body);
    presentedLists.set(answer, serialized);
    return serialized;
  }

  @Route('GET', ':id', { operationId: 'getLink', scope: 'links:read', answers: LinkSchema, summary: 'One link', description: 'A link of yours with its short URL.' })
  async detail(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @CurrentScheme() scheme: RequestScheme) {
    return ok(presentLink(await this.links.get.execute(principal.userId, id), this.bases.of(scheme)));
  }

  /**
   * The short URL as a QR code, PNG or SVG (every peer product offers one). Drawn off the event loop
   * (a large PNG is a good part of a second of CPU), kept once drawn, and counted against a budget of its own.
   */
  @Route('GET', ':id/qr', { operationId: 'getLinkQrCode', scope: 'links:read', raw: { 'image/png': binary, 'image/svg+xml': string }, summary: 'A link\'s QR code', description: 'The short URL as a PNG or SVG QR code (format, size); it carries a marker (lnk_qr=1) so visits through the code count as trigger qr in the statistics.' })
  @RateLimitBudget('qr')
  async qr(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: QrQueryDto,
    @Res() reply: FastifyReply,
    @CurrentScheme() scheme: RequestScheme,
  ) {
    const { shortUrl } = presentLink(await this.links.get.execute(principal.userId, id), this.bases.of(scheme));
    // The marker makes a visit through the code count as a `qr` one; the redirect takes it out of the query.
    const body = await this.qrCodes.render({ text: `${shortUrl}?${QR_MARKER_PARAM}=1`, size: query.size ?? 300, format: query.format ?? 'png' });
    void reply
      .code(200)
      .header('content-type', query.format === 'svg' ? 'image/svg+xml' : 'image/png')
      .header('cache-control', 'private, max-age=300')
      .header('content-disposition', `inline; filename="${id}.${query.format ?? 'png'}"`)
      .send(body);
  }

  @Route('POST', '', { operationId: 'createLink', scope: 'links:write', answers: LinkSchema, summary: 'Create a short link', description: 'Only url is required; a random slug on the service\'s short domain unless slug or domainId say otherwise.' })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateLinkDto, @CurrentScheme() scheme: RequestScheme) {
    return ok(presentLink(await this.links.create.execute(principal.userId, body), this.bases.of(scheme)), 'Link created');
  }

  @Route('PUT', ':id', { operationId: 'updateLink', scope: 'links:write', answers: LinkSchema, summary: 'Change a link', description: 'A partial update: only the fields sent change (url too).' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: UpdateLinkDto,
    @CurrentScheme() scheme: RequestScheme,
  ) {
    return ok(presentLink(await this.links.update.execute(principal.userId, id, body), this.bases.of(scheme)), 'Link updated');
  }

  @Route('DELETE', ':id', { operationId: 'deleteLink', scope: 'links:write', answers: DeletedSchema, summary: 'Delete a link', description: 'The short URL stops answering; the answer says when it was deleted.' })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const deletedAt = await this.links.delete.execute(principal.userId, id);
    return ok({ deletedAt: deletedAt.toISOString() }, 'Link deleted');
  }
}

/** Tags (spec 4.7), with update and delete. */
@Controller('user/tag')
export class TagsController {
  constructor(@Inject(LINKS) private readonly links: Links) {}

  @Route('GET', '', { operationId: 'listTags', scope: 'tags:read', answers: list(TagSchema), meta: PAGE_META, summary: 'List your tags', description: 'Newest first, paged with start and limit; q searches names.' })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: SearchPageQueryDto) {
    const page = await this.links.listTags.execute(principal.userId, query.q, query.toPageRequest());
    return okPage({ ...page, items: page.items.map(presentTag) });
  }

  @Route('GET', 'favorite', { operationId: 'listFavoriteTags', scope: 'tags:read', answers: list(TagSchema), summary: 'Your favorite tags', description: 'The tags marked isFavorite.' })
  async favorites(@CurrentPrincipal() principal: Principal) {
    return ok((await this.links.favoriteTags.execute(principal.userId)).map(presentTag));
  }

  @Route('POST', '', { operationId: 'createTag', scope: 'tags:write', answers: TagSchema, summary: 'Create a tag', description: 'A tag to put on links (by its id, in a link\'s tags).' })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateTagDto) {
    return ok(presentTag(await this.links.createTag.execute(principal.userId, body)), 'Tag created');
  }

  @Route('PUT', ':id', { operationId: 'updateTag', scope: 'tags:write', answers: TagSchema, summary: 'Change a tag', description: 'A partial update of name and isFavorite.' })
  async update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateTagDto) {
    return ok(presentTag(await this.links.updateTag.execute(principal.userId, id, body)), 'Tag updated');
  }

  @Route('DELETE', ':id', { operationId: 'deleteTag', scope: 'tags:write', answers: null, summary: 'Delete a tag', description: 'The tag is gone, and from the links that carried it.' })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.links.deleteTag.execute(principal.userId, id);
    return ok(undefined, 'Tag deleted');
  }
}
