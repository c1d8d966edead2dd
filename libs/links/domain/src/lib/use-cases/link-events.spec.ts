import { Clock, IdGenerator, PasswordHasher, QuotaPolicy, UnitOfWork } from '@lnk/shared/kernel';
import { clockReading } from '@lnk/shared/testing';
import { memoryLinksRepositories } from '@lnk/links/testing';
import { Link } from '../model/link.entity';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkEvents, LinkEventSink, LinkEventType } from '../ports/link-events.port';
import { CreateLinkUseCase } from './create-link.use-case';
import { DeleteLinkUseCase } from './delete-link.use-case';
import { GetLinkUseCase } from './get-link.use-case';
import { UpdateLinkUseCase } from './update-link.use-case';
import { BulkCreateLinksUseCase } from './bulk-create-links.use-case';
import { BulkDeleteLinksUseCase } from './bulk-delete-links.use-case';
import { BulkTagLinksUseCase } from './bulk-tag-links.use-case';
import { ImportLinksUseCase } from './import-links.use-case';
import { LinkViews } from '../services/link-views';

let n = 0;
const ids: IdGenerator = { next: () => (++n).toString(16).padStart(24, '0') };
const clock: Clock = clockReading(() => new Date('2026-02-03T04:05:06.007Z'));
const quota: QuotaPolicy = { limitFor: async () => 100 };
const hasher: PasswordHasher = { hash: async (p) => `hashed:${p}`, verify: async (p, h) => h === `hashed:${p}` };
const domains: LinkDomains = { verifiedDomainOf: async () => null, namesOf: async () => new Map(), verifiedDomainByName: async () => null };

/** Counts the transactions it opens: each one is BEGIN and COMMIT on the database. */
class CountingUnitOfWork extends UnitOfWork {
  transactions = 0;
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.transactions++;
    return work();
  }
}

/** Wants the events of the owners it is given; keeps copies of what it was told. */
class OwnersEvents extends LinkEvents {
  readonly recorded: { type: LinkEventType; link: Link }[] = [];
  constructor(private readonly owners: Set<string>) {
    super();
  }
  wants(_type: LinkEventType, ownerId: string): boolean {
    return this.owners.has(ownerId);
  }
  async record(type: LinkEventType, link: Link): Promise<void> {
    this.recorded.push({ type, link: new Link(link.toProps()) });
  }
  async recordAll(type: LinkEventType, links: Link[]): Promise<void> {
    for (const link of links) await this.record(type, link);
  }
}

describe('link events (webhooks sink)', () => {
  function useCases(sink: LinkEventSink) {
    const { links, tags } = memoryLinksRepositories();
    const noChanges = { linkChanged: () => undefined };
    const getLink = new GetLinkUseCase(links, new LinkViews(tags, domains));
    let slug = 0;
    return {
      create: new CreateLinkUseCase(
        {
          links,
          tags,
          domains,
          quota,
          passwords: hasher,
          slugs: { generate: () => `slug${++slug}` },
          ids,
          clock,
          config: { ownHosts: ['s.lnk.test'] },
          changes: noChanges,
        },
        sink,
      ),
      update: new UpdateLinkUseCase({
        links,
        tags,
        domains,
        passwords: hasher,
        clock,
        config: { ownHosts: ['s.lnk.test'] },
        getLink,
        changes: noChanges,
        events: sink,
      }),
      remove: new DeleteLinkUseCase(links, clock, noChanges, sink),
    };
  }

  // Creation throughput (issue 15): an account without webhooks pays no BEGIN, enqueue and COMMIT per link.
  /** A link of ada's created, changed and deleted, events wanted by `subscribed`: the transactions it took and the events recorded. */
  async function linkLife(subscribed: string) {
    const unitOfWork = new CountingUnitOfWork();
    const events = new OwnersEvents(new Set([subscribed]));
    const { create, update, remove } = useCases({ events, unitOfWork });
    const { link } = await create.execute('ada', { url: 'https://example.com/' });
    await update.execute('ada', link.id, { title: 'changed' });
    await remove.execute('ada', link.id);
    return { link, transactions: unitOfWork.transactions, recorded: events.recorded };
  }

  it('runs create, update and delete with no transaction and no event for an owner without webhooks', async () => {
    const { transactions, recorded } = await linkLife('someone-else');
    expect(transactions).toBe(0);
    expect(recorded).toEqual([]);
  });

  it('records each change in its own transaction for an owner who wants the events', async () => {
    const { link, transactions, recorded } = await linkLife('ada');
    expect(transactions).toBe(3);
    expect(recorded.map((r) => [r.type, r.link.id])).toEqual([
      ['link.created', link.id],
      ['link.updated', link.id],
      ['link.deleted', link.id],
    ]);
    expect(recorded[1].link.title).toBe('changed');
  });

  // A system mirroring links (a CMS) must hear of links made or removed many at once as of one at a time.
  describe('many links at once', () => {
    function bulk(sink: LinkEventSink) {
      const { links, tags } = memoryLinksRepositories();
      const noChanges = { linkChanged: () => undefined };
      let slug = 0;
      const slugs = { generate: () => `bulk${++slug}` };
      const config = { ownHosts: ['s.lnk.test'] };
      return {
        create: new BulkCreateLinksUseCase(
          { links, tags, domains, quota, passwords: hasher, slugs, ids, clock, config, changes: noChanges },
          sink.unitOfWork,
          sink,
        ),
        importLinks: new ImportLinksUseCase(
          { links, tags, domains, quota, passwords: hasher, slugs, ids, clock, config, changes: noChanges },
          sink.unitOfWork,
          10,
          sink,
        ),
        remove: new BulkDeleteLinksUseCase(links, noChanges, clock, sink),
        retag: new BulkTagLinksUseCase({ links, tags, quota, ids, clock, events: sink }),
      };
    }

    it('tells a subscribed owner of each link created, imported, retagged and deleted', async () => {
      const events = new OwnersEvents(new Set(['ada']));
      const { create, importLinks, remove, retag } = bulk({ events, unitOfWork: new CountingUnitOfWork() });
      const made = await create.execute('ada', [{ url: 'https://example.com/1' }, { url: 'not a url' }, { url: 'https://example.com/2' }]);
      const createdIds = made.flatMap((r) => ('view' in r ? [r.view.link.id] : []));
      expect(createdIds).toHaveLength(2);
      await importLinks.execute('ada', [
        { line: 2, url: 'https://example.com/3', tags: [] },
        { line: 3, url: 'https://example.com/4', tags: [] },
      ]);
      await retag.execute('ada', { ids: [createdIds[0]], add: ['campaign'] });
      await remove.execute('ada', [createdIds[1], 'ffffffffffffffffffffffff']);
      const byType = (type: LinkEventType) => events.recorded.filter((r) => r.type === type).map((r) => r.link);
      expect(byType('link.created').map((l) => l.url)).toEqual([
        'https://example.com/1',
        'https://example.com/2',
        'https://example.com/3',
        'https://example.com/4',
      ]);
      expect(byType('link.updated').map((l) => [l.id, l.tagIds.length])).toEqual([[createdIds[0], 1]]);
      expect(byType('link.deleted').map((l) => l.id)).toEqual([createdIds[1]]);
    });

    it('records nothing for an owner without webhooks', async () => {
      const events = new OwnersEvents(new Set(['someone-else']));
      const { create, remove } = bulk({ events, unitOfWork: new CountingUnitOfWork() });
      const made = await create.execute('ada', [{ url: 'https://example.com/1' }]);
      await remove.execute(
        'ada',
        made.flatMap((r) => ('view' in r ? [r.view.link.id] : [])),
      );
      expect(events.recorded).toEqual([]);
    });
  });
});
