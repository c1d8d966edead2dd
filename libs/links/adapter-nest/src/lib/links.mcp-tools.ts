import { Injectable } from '@nestjs/common';
import {
  CreateLinkUseCase,
  DeleteLinkUseCase,
  GetLinkUseCase,
  ListLinksUseCase,
  ListTagsUseCase,
  UpdateLinkUseCase,
} from '@lnk/links/domain';
import { McpTool, type McpToolCall, ok, okPage, SearchPageQueryDto } from '@lnk/shared/http';
import { CreateLinkDto, LinkListQueryDto, UpdateLinkDto } from './links.request.dto';
import { presentLink, presentLinkListItem, presentTag } from './links.presenter';
import { ShortUrlBases } from './short-url-base';

const LINK_ID = "The link's id (find_links lists them).";

/**
 * The links context's MCP tools (docs/mcp.md): each does the work of a route of LinksController or
 * TagsController, with its scope, its request DTO and its use case. Short URLs are written with the
 * configured scheme (an MCP request is not a browser's, whose scheme CUSTOM_DOMAIN_SCHEME=request follows).
 */
@Injectable()
export class LinksMcpTools {
  constructor(
    private readonly listLinks: ListLinksUseCase,
    private readonly getLink: GetLinkUseCase,
    private readonly createLink: CreateLinkUseCase,
    private readonly updateLink: UpdateLinkUseCase,
    private readonly deleteLink: DeleteLinkUseCase,
    private readonly listTags: ListTagsUseCase,
    private readonly bases: ShortUrlBases,
  ) {}

  @McpTool({
    name: 'create_link',
    scope: 'links:write',
    input: CreateLinkDto,
    description:
      'Create a short link (POST /user/link): only url is required; a random slug on ' +
      "the service's short domain unless slug or domainId say otherwise.",
  })
  async create({ caller, input }: McpToolCall<CreateLinkDto>) {
    return ok(presentLink(await this.createLink.execute(caller.userId, input), this.bases.fixed), 'Link created');
  }

  @McpTool({
    name: 'find_links',
    scope: 'links:read',
    input: LinkListQueryDto,
    readOnly: true,
    description:
      'List or search your links (GET /user/link): newest first (sort "oldest" or "title" for the others), paged with start ' +
      'and limit; q searches title, slug and URL; expired "true" or "false" keeps only the expired links or only the others; ' +
      'tag (a tag id from list_tags) only the links carrying it; favorite "true" only the favourites.',
  })
  async find({ caller, input }: McpToolCall<LinkListQueryDto>) {
    const { page, domainNames } = await this.listLinks.execute(caller.userId, input.q, input.toPageRequest(), input.toFilter());
    return okPage({ ...page, items: page.items.map((link) => presentLinkListItem(link, this.bases.fixed, domainNames)) });
  }

  @McpTool({
    name: 'get_link',
    scope: 'links:read',
    id: LINK_ID,
    readOnly: true,
    description: 'One link of yours with its short URL (GET /user/link/{id}).',
  })
  async get({ caller, id }: McpToolCall<undefined>) {
    return ok(presentLink(await this.getLink.execute(caller.userId, id), this.bases.fixed));
  }

  @McpTool({
    name: 'update_link',
    scope: 'links:write',
    id: LINK_ID,
    input: UpdateLinkDto,
    description: 'Change a link (PUT /user/link/{id}): a partial update, only the fields given change.',
  })
  async update({ caller, input, id }: McpToolCall<UpdateLinkDto>) {
    return ok(presentLink(await this.updateLink.execute(caller.userId, id, input), this.bases.fixed), 'Link updated');
  }

  @McpTool({
    name: 'delete_link',
    scope: 'links:write',
    id: LINK_ID,
    destructive: true,
    description: 'Delete a link (DELETE /user/link/{id}): its short URL stops answering.',
  })
  async remove({ caller, id }: McpToolCall<undefined>) {
    const deletedAt = await this.deleteLink.execute(caller.userId, id);
    return ok({ deletedAt: deletedAt.toISOString() }, 'Link deleted');
  }

  @McpTool({
    name: 'list_tags',
    scope: 'tags:read',
    input: SearchPageQueryDto,
    readOnly: true,
    description: "List your tags (GET /user/tag): newest first, paged with start and limit; q searches names. A link's tags are these ids.",
  })
  async tags({ caller, input }: McpToolCall<SearchPageQueryDto>) {
    const page = await this.listTags.execute(caller.userId, input.q, input.toPageRequest());
    return okPage({ ...page, items: page.items.map(presentTag) });
  }
}
