import { Injectable } from '@nestjs/common';
import { ListDomainsUseCase } from '@lnk/domains/domain';
import { McpTool, type McpToolCall, okPage, SearchPageQueryDto } from '@lnk/shared/http';
import { DomainsSettings } from './domains.settings';
import { presentDomain } from './domains.presenter';

/** The domains context's MCP tool (docs/mcp.md): the work of GET /user/domain, its scope, DTO and use case. */
@Injectable()
export class DomainsMcpTools {
  constructor(
    private readonly listDomains: ListDomainsUseCase,
    private readonly settings: DomainsSettings,
  ) {}

  @McpTool({
    name: 'list_domains',
    scope: 'domains:read',
    input: SearchPageQueryDto,
    readOnly: true,
    description: "List your custom domains (GET /user/domain), each with its verification state; a verified one's id is a link's domainId.",
  })
  async list({ caller, input }: McpToolCall<SearchPageQueryDto>) {
    const page = await this.listDomains.execute(caller.userId, input.q, input.toPageRequest());
    return okPage({ ...page, items: page.items.map((domain) => presentDomain(domain, this.settings)) });
  }
}
