import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  CreateLinkUseCase,
  CreateTagUseCase,
  DeleteLinkUseCase,
  DeleteTagUseCase,
  FavoriteTagsUseCase,
  GetLinkUseCase,
  GetTagUseCase,
  LinkListAnswer,
  type LinkView,
  ListLinksUseCase,
  ListTagsUseCase,
  QR_MARKER_PARAM,
  type TagWithCount,
  UpdateLinkUseCase,
  UpdateTagUseCase,
} from '@lnk/links/domain';
import {
  binary,
  type Caller,
  CurrentPrincipal,
  changeIfMatch,
  IfMatch,
  type IfMatchPrecondition,
  Cursors,
  DeletedSchema,
  list,
  ok,
  okPage,
  PAGE_META,
  RateLimitBudget,
  Route,
  searchKey,
  SearchPageQueryDto,
  type SerializedOk,
  serializedOk,
  string,
} from '@lnk/shared/http';
import { LinkListItemSchema, LinkSchema, TagSchema } from './links.schemas';
import { QrRenderer } from './qr-renderer';
import { CreateLinkDto, CreateTagDto, LinkListQueryDto, QrQueryDto, UpdateLinkDto, UpdateTagDto } from './links.request.dto';
import { presentLink, presentLinkListItem, presentTag } from './links.presenter';
import { CurrentScheme, type RequestScheme, type ShortUrlBase, ShortUrlBases } from './short-url-base';

type PresentedList = ReturnType<typeof presentLinkListItem>[];

/** Short links (spec 4.5). */
@Controller('user/link')
export class LinksController {
  constructor(
    private readonly listLinks: ListLinksUseCase,
    private readonly getLink: GetLinkUseCase,
    private readonly createLink: CreateLinkUseCase,
    private readonly updateLink: UpdateLinkUseCase,
    private readonly deleteLink: DeleteLinkUseCase,
    private readonly bases: ShortUrlBases,
    private readonly qrCodes: QrRenderer,
    private readonly cursors: Cursors,
  ) {}

  /**
   * The JSON of the list answers the list cache shares (frozen): gone with them. One map per short-URL
   * base: with CUSTOM_DOMAIN_SCHEME=request an answer's JSON differs by the request's scheme.
   */
  private readonly presentedLists = new Map<ShortUrlBase, WeakMap<LinkListAnswer, SerializedOk<PresentedList>>>();

  @Route('GET', '', {
    operationId: 'listLinks',
    scope: 'links:read',
    answers: list(LinkListItemSchema),
    meta: PAGE_META,
    serialized: true,
    summary: 'List your links',
    description:
      'Newest first (sort=oldest|title for the others), paged with start and limit or cursor; q ' +
      'searches title, slug and URL; expired=true|false keeps only the expired links or only the ' +
      'others; tag=<id> only the links carrying that tag; favorite=true only the favourites.',
  })
  async list(@CurrentPrincipal() caller: Caller, @Query() query: LinkListQueryDto, @CurrentScheme() scheme: RequestScheme) {
    const filter = query.toFilter();
    // A cursor is bound to every filter and the sort: one made under another is INVALID_CURSOR.
    const scope = {
      list: 'links',
      owner: caller.userId,
      query: { q: searchKey(query.q), expired: query.expired, tag: filter.tagId, favorite: filter.favorite, sort: filter.sort },
    };
    const answer = await this.listLinks.execute(caller.userId, query.q, this.cursors.request(query, scope), filter);
    const base = this.bases.of(scheme);
    let presentedLists = this.presentedLists.get(base);
    if (!presentedLists) this.presentedLists.set(base, (presentedLists = new WeakMap()));
    // A cached answer (frozen, shared) comes back as the same object: presented and serialised once per
    // base, while the list cache holds it.
    const presented = presentedLists.get(answer);
    if (presented) return presented;
    const { page, domainNames } = answer;
    const body = okPage({
      ...page,
      items: page.items.map((l) => presentLinkListItem(l, base, domainNames)),
      nextCursor: this.cursors.next(page, scope),
    });
    if (!Object.isFrozen(answer)) return body;
    const serialized = serializedOk(body);
    presentedLists.set(answer, serialized);
    return serialized;
  }

  @Route('GET', ':id', {
    operationId: 'getLink',
    scope: 'links:read',
    answers: LinkSchema,
    etag: true,
    summary: 'One link',
    description: 'A link of yours with its short URL.',
  })
  async detail(@CurrentPrincipal() caller: Caller, @Param('id') id: string, @CurrentScheme() scheme: RequestScheme) {
    return ok(presentLink(await this.getLink.execute(caller.userId, id), this.bases.of(scheme)));
  }

  /**
   * The short URL as a QR code, PNG or SVG (every peer product offers one). Drawn off the event loop
   * (a large PNG is a good part of a second of CPU), kept once drawn, and counted against a budget of its own.
   */
  @Route('GET', ':id/qr', {
    operationId: 'getLinkQrCode',
    scope: 'links:read',
    raw: { 'image/png': binary, 'image/svg+xml': string },
    summary: "A link's QR code",
    description:
      'The short URL as a PNG or SVG QR code (format, size); it carries a marker ' +
      '(lnk_qr=1) so visits through the code count as trigger qr in the statistics.',
  })
  @RateLimitBudget('qr')
  async qr(
    @CurrentPrincipal() caller: Caller,
    @Param('id') id: string,
    @Query() query: QrQueryDto,
    @Res() reply: FastifyReply,
    @CurrentScheme() scheme: RequestScheme,
  ) {
    const { shortUrl } = presentLink(await this.getLink.execute(caller.userId, id), this.bases.of(scheme));
    // The marker makes a visit through the code count as a `qr` one; the redirect takes it out of the query.
    const body = await this.qrCodes.render({
      text: `${shortUrl}?${QR_MARKER_PARAM}=1`,
      size: query.size ?? 300,
      format: query.format ?? 'png',
    });
    void reply
      .code(200)
      .header('content-type', query.format === 'svg' ? 'image/svg+xml' : 'image/png')
      .header('cache-control', 'private, max-age=300')
      .header('content-disposition', `inline; filename="${id}.${query.format ?? 'png'}"`)
      .send(body);
  }

  @Route('POST', '', {
    operationId: 'createLink',
    scope: 'links:write',
    answers: LinkSchema,
    idempotent: 'replays',
    summary: 'Create a short link',
    description: "Only url is required; a random slug on the service's short domain unless slug or domainId say otherwise.",
  })
  async create(@CurrentPrincipal() caller: Caller, @Body() body: CreateLinkDto, @CurrentScheme() scheme: RequestScheme) {
    return ok(presentLink(await this.createLink.execute(caller.userId, body), this.bases.of(scheme)), 'Link created');
  }

  @Route('PUT', ':id', {
    operationId: 'updateLink',
    scope: 'links:write',
    answers: LinkSchema,
    etag: true,
    summary: 'Change a link',
    description: 'A partial update: only the fields sent change (url too).',
  })
  async update(
    @CurrentPrincipal() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdateLinkDto,
    @CurrentScheme() scheme: RequestScheme,
    @IfMatch() precondition: IfMatchPrecondition,
  ) {
    const base = this.bases.of(scheme);
    const change = (expected?: (current: LinkView) => boolean) => this.updateLink.execute(caller.userId, id, body, expected);
    const link = await changeIfMatch(precondition, {
      present: (view: LinkView) => presentLink(view, base),
      change,
      current: () => this.getLink.execute(caller.userId, id),
    });
    return ok(link, 'Link updated');
  }

  @Route('DELETE', ':id', {
    operationId: 'deleteLink',
    scope: 'links:write',
    answers: DeletedSchema,
    summary: 'Delete a link',
    description: 'The short URL stops answering; the answer says when it was deleted.',
  })
  async remove(@CurrentPrincipal() caller: Caller, @Param('id') id: string) {
    const deletedAt = await this.deleteLink.execute(caller.userId, id);
    return ok({ deletedAt: deletedAt.toISOString() }, 'Link deleted');
  }
}

/** Tags (spec 4.7), with update and delete. */
@Controller('user/tag')
export class TagsController {
  constructor(
    private readonly listTags: ListTagsUseCase,
    private readonly favoriteTags: FavoriteTagsUseCase,
    private readonly createTag: CreateTagUseCase,
    private readonly updateTag: UpdateTagUseCase,
    private readonly getTag: GetTagUseCase,
    private readonly deleteTag: DeleteTagUseCase,
    private readonly cursors: Cursors,
  ) {}

  @Route('GET', '', {
    operationId: 'listTags',
    scope: 'tags:read',
    answers: list(TagSchema),
    meta: PAGE_META,
    summary: 'List your tags',
    description: 'Newest first, paged with start and limit; q searches names.',
  })
  async list(@CurrentPrincipal() caller: Caller, @Query() query: SearchPageQueryDto) {
    const scope = { list: 'tags', owner: caller.userId, query: { q: searchKey(query.q) } };
    return this.cursors.answer(query, scope, (request) => this.listTags.execute(caller.userId, query.q, request), presentTag);
  }

  @Route('GET', 'favorite', {
    operationId: 'listFavoriteTags',
    scope: 'tags:read',
    answers: list(TagSchema),
    summary: 'Your favorite tags',
    description: 'The tags marked isFavorite.',
  })
  async favorites(@CurrentPrincipal() caller: Caller) {
    return ok((await this.favoriteTags.execute(caller.userId)).map(presentTag));
  }

  @Route('POST', '', {
    operationId: 'createTag',
    scope: 'tags:write',
    answers: TagSchema,
    idempotent: 'replays',
    summary: 'Create a tag',
    description: "A tag to put on links (by its id, in a link's tags).",
  })
  async create(@CurrentPrincipal() caller: Caller, @Body() body: CreateTagDto) {
    return ok(presentTag(await this.createTag.execute(caller.userId, body)), 'Tag created');
  }

  /**
   * A tag has no GET of its own (the spec gives none): its ETag is answered by this PUT (and by its 412),
   * a digest of the tag as answered, linkCount included. A first If-Match may be `*`.
   */
  @Route('PUT', ':id', {
    operationId: 'updateTag',
    scope: 'tags:write',
    answers: TagSchema,
    etag: true,
    summary: 'Change a tag',
    description:
      "A partial update of name and isFavorite. The answer carries the tag's ETag (a tag has no GET of " +
      'its own); If-Match makes the change only if the tag is still as that ETag says.',
  })
  async update(
    @CurrentPrincipal() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdateTagDto,
    @IfMatch() precondition: IfMatchPrecondition,
  ) {
    // Its ETag is that of this route's answer (a tag has no GET).
    const change = (expected?: (current: TagWithCount) => boolean) => this.updateTag.execute(caller.userId, id, body, expected);
    const tag = await changeIfMatch(precondition, { present: presentTag, change, current: () => this.getTag.execute(caller.userId, id) });
    return ok(tag, 'Tag updated');
  }

  @Route('DELETE', ':id', {
    operationId: 'deleteTag',
    scope: 'tags:write',
    answers: null,
    summary: 'Delete a tag',
    description: 'The tag is gone, and from the links that carried it.',
  })
  async remove(@CurrentPrincipal() caller: Caller, @Param('id') id: string) {
    await this.deleteTag.execute(caller.userId, id);
    return ok(undefined, 'Tag deleted');
  }
}
