import { Body, Controller, Delete, Get, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Principal } from '@lnk/identity/domain';
import { CurrentPrincipal, RequireScope } from '../../auth/access.decorators';
import { Responds, RespondsRaw } from '../../openapi/responds.decorator';
import { binary, list, string } from '../../openapi/schema';
import { DeletedSchema, PAGE_META } from '../../openapi/response-schemas';
import { LinkListItemSchema, LinkSchema, TagSchema } from './links.schemas';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { LINKS } from '../../composition/contexts.module';
import type { Links } from '../../composition/contexts.composition';
import { ok, okPage } from '../../envelope/envelope';
import { RateLimitBudget } from '../../rate-limit/rate-limit.guard';
import { QrRenderer } from './qr-renderer';
import { SearchPageQueryDto } from '../paging.request.dto';
import { CreateLinkDto, CreateTagDto, QrQueryDto, UpdateLinkDto, UpdateTagDto } from './links.request.dto';
import { presentLink, presentLinkListItem, presentTag } from './links.presenter';

/** Short links (spec 4.5). */
@Controller('user/link')
export class LinksController {
  constructor(
    @Inject(LINKS) private readonly links: Links,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly qrCodes: QrRenderer,
  ) {}

  @ApiOperation({ summary: 'List your links', description: 'Newest first, paged with start and limit; q searches title, slug and URL.' })
  @Get()
  @RequireScope('links:read')
  @Responds(list(LinkListItemSchema), { meta: PAGE_META })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: SearchPageQueryDto) {
    const { page, domainNames } = await this.links.list.execute(principal.userId, query.q, query.toPageRequest());
    return okPage({ ...page, items: page.items.map((l) => presentLinkListItem(l, this.config.shortBaseUrl, domainNames)) });
  }

  @ApiOperation({ summary: 'One link', description: 'A link of yours with its short URL.' })
  @Get(':id')
  @RequireScope('links:read')
  @Responds(LinkSchema)
  async detail(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return ok(presentLink(await this.links.get.execute(principal.userId, id), this.config.shortBaseUrl));
  }

  /**
   * The short URL as a QR code, PNG or SVG (every peer product offers one). Drawn off the event loop
   * (a large PNG is a good part of a second of CPU), kept once drawn, and counted against a budget of its own.
   */
  @ApiOperation({ summary: 'A link\'s QR code', description: 'The short URL as a PNG or SVG QR code (format, size).' })
  @Get(':id/qr')
  @RequireScope('links:read')
  @RespondsRaw({ 'image/png': binary, 'image/svg+xml': string })
  @RateLimitBudget('qr')
  async qr(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Query() query: QrQueryDto, @Res() reply: FastifyReply) {
    const { shortUrl } = presentLink(await this.links.get.execute(principal.userId, id), this.config.shortBaseUrl);
    const body = await this.qrCodes.render({ text: shortUrl, size: query.size ?? 300, format: query.format ?? 'png' });
    void reply
      .code(200)
      .header('content-type', query.format === 'svg' ? 'image/svg+xml' : 'image/png')
      .header('cache-control', 'private, max-age=300')
      .header('content-disposition', `inline; filename="${id}.${query.format ?? 'png'}"`)
      .send(body);
  }

  @ApiOperation({ summary: 'Create a short link', description: 'Only url is required; a random slug on the service\'s short domain unless slug or domainId say otherwise.' })
  @Post()
  @RequireScope('links:write')
  @Responds(LinkSchema)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateLinkDto) {
    return ok(presentLink(await this.links.create.execute(principal.userId, body), this.config.shortBaseUrl), 'Link created');
  }

  @ApiOperation({ summary: 'Change a link', description: 'A partial update: only the fields sent change (url too).' })
  @Put(':id')
  @RequireScope('links:write')
  @Responds(LinkSchema)
  async update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateLinkDto) {
    return ok(presentLink(await this.links.update.execute(principal.userId, id, body), this.config.shortBaseUrl), 'Link updated');
  }

  @ApiOperation({ summary: 'Delete a link', description: 'The short URL stops answering; the answer says when it was deleted.' })
  @Delete(':id')
  @RequireScope('links:write')
  @Responds(DeletedSchema)
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    const deletedAt = await this.links.delete.execute(principal.userId, id);
    return ok({ deletedAt: deletedAt.toISOString() }, 'Link deleted');
  }
}

/** Tags (spec 4.7), with update and delete. */
@Controller('user/tag')
export class TagsController {
  constructor(@Inject(LINKS) private readonly links: Links) {}

  @ApiOperation({ summary: 'List your tags', description: 'Newest first, paged with start and limit; q searches names.' })
  @Get()
  @RequireScope('tags:read')
  @Responds(list(TagSchema), { meta: PAGE_META })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: SearchPageQueryDto) {
    const page = await this.links.listTags.execute(principal.userId, query.q, query.toPageRequest());
    return okPage({ ...page, items: page.items.map(presentTag) });
  }

  @ApiOperation({ summary: 'Your favorite tags', description: 'The tags marked isFavorite.' })
  @Get('favorite')
  @RequireScope('tags:read')
  @Responds(list(TagSchema))
  async favorites(@CurrentPrincipal() principal: Principal) {
    return ok((await this.links.favoriteTags.execute(principal.userId)).map(presentTag));
  }

  @ApiOperation({ summary: 'Create a tag', description: 'A tag to put on links (by its id, in a link\'s tags).' })
  @Post()
  @RequireScope('tags:write')
  @Responds(TagSchema)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateTagDto) {
    return ok(presentTag(await this.links.createTag.execute(principal.userId, body)), 'Tag created');
  }

  @ApiOperation({ summary: 'Change a tag', description: 'A partial update of name and isFavorite.' })
  @Put(':id')
  @RequireScope('tags:write')
  @Responds(TagSchema)
  async update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateTagDto) {
    return ok(presentTag(await this.links.updateTag.execute(principal.userId, id, body)), 'Tag updated');
  }

  @ApiOperation({ summary: 'Delete a tag', description: 'The tag is gone, and from the links that carried it.' })
  @Delete(':id')
  @RequireScope('tags:write')
  @Responds(null)
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.links.deleteTag.execute(principal.userId, id);
    return ok(undefined, 'Tag deleted');
  }
}
