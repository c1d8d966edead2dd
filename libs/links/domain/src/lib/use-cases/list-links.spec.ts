import { PageRequest } from '@lnk/shared/kernel';
import { LinkListAnswer, LinkListQuery, LinkLists } from '../ports/link-lists.port';
import { ListLinksUseCase } from './list-links.use-case';

/** Records what the use case asks (a cache in front keys on it: equal questions must be asked alike). */
class AskedLists extends LinkLists {
  asked: { ownerId: string; query: LinkListQuery }[] = [];
  async listOf(ownerId: string, query: LinkListQuery): Promise<LinkListAnswer> {
    this.asked.push({ ownerId, query });
    return {
      page: { items: [], total: 0, start: query.page.start, limit: query.page.limit } as unknown as LinkListAnswer['page'],
      domainNames: new Map(),
    };
  }
}

describe('ListLinksUseCase', () => {
  it('asks for the owner’s list with the search trimmed, a blank search as none, and the page and filter as given', async () => {
    const lists = new AskedLists();
    const list = new ListLinksUseCase(lists);
    const page = PageRequest.of(20, 10);
    await list.execute('owner-a', '  launch ', page, { expired: true });
    await list.execute('owner-a', '   ', page);
    await list.execute('owner-b', undefined, page);
    expect(lists.asked).toEqual([
      { ownerId: 'owner-a', query: { q: 'launch', page, filter: { expired: true } } },
      { ownerId: 'owner-a', query: { q: undefined, page, filter: {} } },
      { ownerId: 'owner-b', query: { q: undefined, page, filter: {} } },
    ]);
  });
});
