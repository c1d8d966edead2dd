import { Link } from '@lnk/links/domain';
import { ObjectIdGenerator, ValidationError } from '@lnk/shared/kernel';
import { useTestDataSource } from '@lnk/shared/testing';
import { linksPersistence } from './links.persistence';
import { TypeormLinkRepository } from './typeorm-link.repository';

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');

function link(ownerId: string, over: Partial<ReturnType<Link['toProps']>> = {}): Link {
  return new Link({ id: ids.next(), ownerId, domainId: null, slug: `s${ids.next().slice(-10)}`, url: 'https://example.com/page', title: '', description: '', status: true, passwordHash: null, tagIds: [], clicks: 0, createdAt: now, updatedAt: now, ...over });
}

describe('TypeormLinkRepository on PostgreSQL: races, click rows and the redirect lookup', () => {
  const dataSource = useTestDataSource([linksPersistence]);
  let links: TypeormLinkRepository;

  beforeAll(async () => {
    links = new TypeormLinkRepository(dataSource());
  });

  it('keeps one slug namespace per domain, case-sensitively, under concurrent claims', async () => {
    const owner = ids.next();
    const domain = ids.next();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => links.insertWithinQuota(link(owner, { slug: 'promo' }), 100)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect(r.reason).toBeInstanceOf(ValidationError);
      expect((r.reason as ValidationError).errors[0].name).toBe('slug');
    }
    await expect(links.insertWithinQuota(link(owner, { slug: 'promo', domainId: domain }), 100)).resolves.toBeUndefined();
    await expect(links.insertWithinQuota(link(owner, { slug: 'Promo' }), 100)).resolves.toBeUndefined();
  });

  // Click totals live in their own narrow table (the per-second click write used to rewrite the wide link
  // row and every one of its indexes); the contract checks the totals a reader sees, this the rows behind them.
  it('keeps no click rows for a link deleted before or after its clicks were counted', async () => {
    const owner = ids.next();
    const [clicked, gone] = [link(owner), link(owner)];
    for (const l of [clicked, gone]) await links.insertWithinQuota(l, 10);
    await links.deleteOfOwner(owner, gone.id);
    await links.addClicks(new Map([[clicked.id, 3], [gone.id, 5]]));
    const clickRows = async (linkId: string) => (await dataSource().query('SELECT count(*)::int AS n FROM link_clicks WHERE link_id = $1', [linkId]))[0].n;
    expect(await clickRows(clicked.id)).toBe(1);
    expect(await clickRows(gone.id)).toBe(0);
    await links.deleteOfOwner(owner, clicked.id);
    expect(await clickRows(clicked.id)).toBe(0);
  });

  // Two instances flush at once, their batches sharing links: rows are taken in link order, so neither
  // waits on the other in a cycle (PostgreSQL would abort one with a deadlock, and its clicks would wait).
  it('adds two concurrent batches over the same links, in opposite orders, without a deadlock', async () => {
    const owner = ids.next();
    const many = Array.from({ length: 200 }, () => link(owner));
    for (const l of many) await links.insertWithinQuota(l, 1000);
    const forward = new Map(many.map((l) => [l.id, 1]));
    const backward = new Map([...many].reverse().map((l) => [l.id, 1]));
    for (let i = 0; i < 10; i++) await Promise.all([links.addClicks(forward), links.addClicks(backward)]);
    const [{ total }] = await dataSource().query('SELECT sum(clicks)::int AS total FROM link_clicks WHERE link_id = ANY($1)', [many.map((l) => l.id)]);
    expect(total).toBe(200 * 20);
  });

  // A redirect miss (a scanner's unknown slug, a link not yet cached) must cost one cheap query: one
  // statement, answered by the (domain, slug) index, read as a plain row rather than an entity.
  it('looks a short URL up, found or not, with one statement the (domain, slug) index answers, as a plain row', async () => {
    const owner = ids.next();
    const domain = ids.next();
    await links.insertWithinQuota(link(owner, { slug: 'redirect-me', title: '' }), 10);
    await links.insertWithinQuota(link(owner, { slug: 'redirect-me', title: 'On a domain', domainId: domain }), 10);

    const statements: { text: string; params: unknown[] }[] = [];
    const createQueryRunner = dataSource().createQueryRunner.bind(dataSource());
    const spy = jest.spyOn(dataSource(), 'createQueryRunner').mockImplementation((...args) => {
      const runner = createQueryRunner(...args);
      const query = runner.query.bind(runner);
      runner.query = ((text: string, params?: unknown[], ...rest: unknown[]) => {
        statements.push({ text, params: params ?? [] });
        return (query as (...a: unknown[]) => Promise<unknown>)(text, params, ...rest);
      }) as typeof runner.query;
      return runner;
    });
    let found: Awaited<ReturnType<TypeormLinkRepository['findForRedirect']>>;
    let onDomain: typeof found;
    try {
      found = await links.findForRedirect(null, 'redirect-me');
      onDomain = await links.findForRedirect(domain, 'redirect-me');
      expect(await links.findForRedirect(null, 'no-such-slug')).toBeNull();
    } finally {
      spy.mockRestore();
    }
    expect(statements).toHaveLength(3);
    expect(found).toMatchObject({ slug: 'redirect-me', domainId: null, name: 'redirect-me', status: true, passwordHash: null });
    expect(onDomain).toMatchObject({ domainId: domain, name: 'On a domain' });
    expect(Object.getPrototypeOf(found)).toBe(Object.prototype);

    // With sequential scans priced out, the plan shows whether the statement can use the index at all.
    const runner = dataSource().createQueryRunner();
    try {
      await runner.query('SET enable_seqscan = off');
      const plan = (await runner.query(`EXPLAIN ${statements[2].text}`, statements[2].params)) as Record<string, string>[];
      expect(plan.map((row) => Object.values(row).join(' ')).join('\n')).toContain('links_domain_slug_key');
    } finally {
      await runner.query('RESET enable_seqscan');
      await runner.release();
    }
  });
});
