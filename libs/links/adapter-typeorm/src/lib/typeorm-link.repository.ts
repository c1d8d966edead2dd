import { DataSource } from 'typeorm';
import { DeletedLink, Link, LinkListChanges, LinkListView, LinkProps, LinkRepository, LinkSort, RedirectTarget } from '@lnk/links/domain';
import { Keyset, Page, PageRequest, pageOf, QuotaExceededError, ValidationError } from '@lnk/shared/kernel';
import { LINK_USAGE_STRIPES } from './migrations/1764340000000-links-usage-stripes';
import { expiredAt, linkOptionsOf, OPTION_COLUMNS, optionParams, REDIRECT_OPTION_COLUMNS, redirectOptionsOfRow } from './link-options.rows';
import {
  bool,
  containsPattern,
  countOf,
  deleteCounted,
  firstOf,
  guardUnique,
  int,
  inTransaction,
  JsonColumn,
  jsonRows,
  jsonRowsOf,
  OwnedRowsRepository,
  prepared,
  PreparedStatement,
  Quota,
  Row,
  rowsOf,
  sql,
  text,
  textArray,
  textOrNull,
  timestamp,
  whenTransactionEnds,
} from '@lnk/shared/database';

/** Links per statement of the click totals' write (addClicks), and its JSON rows' columns. */
const CLICK_TOTALS_CHUNK = 2_000;
const CLICK_TOTAL_COLUMNS: JsonColumn[] = [
  ['id', 'char(24)'],
  ['n', 'bigint'],
];

const COLUMNS = `l.id, l.owner_id, l.domain_id, l.slug, l.url, l.title, l.description, l.status, l.password_hash, l.is_favorite,
  COALESCE((SELECT c.clicks FROM link_clicks c WHERE c.link_id = l.id), 0) AS clicks, l.created_at, l.updated_at, ARRAY(SELECT lt.tag_id
    FROM link_tags lt WHERE lt.link_id = l.id ORDER BY lt.tag_id) AS tag_ids,
  ${OPTION_COLUMNS}`;

const linkProps = (r: Row): LinkProps => ({
  id: text(r, 'id'),
  ownerId: text(r, 'owner_id'),
  domainId: textOrNull(r, 'domain_id'),
  slug: text(r, 'slug'),
  url: text(r, 'url'),
  title: text(r, 'title'),
  description: text(r, 'description'),
  status: bool(r, 'status'),
  passwordHash: textOrNull(r, 'password_hash'),
  tagIds: textArray(r, 'tag_ids'),
  isFavorite: bool(r, 'is_favorite'),
  clicks: int(r, 'clicks'),
  createdAt: timestamp(r, 'created_at'),
  updatedAt: timestamp(r, 'updated_at'),
  options: linkOptionsOf(r),
});
const toLink = (r: Row) => new Link(linkProps(r));

const redirectTarget = (r: Row): RedirectTarget => ({
  id: text(r, 'id'),
  ownerId: text(r, 'owner_id'),
  domainId: textOrNull(r, 'domain_id'),
  slug: text(r, 'slug'),
  url: text(r, 'url'),
  name: text(r, 'name'),
  status: bool(r, 'status'),
  passwordHash: textOrNull(r, 'password_hash'),
  options: redirectOptionsOfRow(r),
});

/** A link of its owner's (GET /user/link/{id} and every change): prepared, see `prepared`. */
const LINK_OF_OWNER = prepared(`SELECT ${COLUMNS} FROM links l WHERE l.id = $1 AND l.owner_id = $2`);

/**
 * A short URL's lookup, the redirect's one query when its cache misses: answered by the expression index
 * on (COALESCE(domain_id, ''), slug), read as a plain row; prepared (PostgreSQL's parse and plan were most
 * of its cost for a one-row index lookup).
 */
const REDIRECT_LOOKUP = prepared(`SELECT id, owner_id, domain_id, slug, url, CASE WHEN title = '' THEN slug ELSE title END
    AS name, status, password_hash, ${REDIRECT_OPTION_COLUMNS}
  FROM links l WHERE COALESCE(domain_id, '') = $1 AND slug = $2`);

/** The columns of a new link as `insertRows` passes them (JSON rows, see json-rows.ts), in its order. */
const NEW_LINK_COLUMNS: JsonColumn[] = [
  ['id', 'char(24)'],
  ['domain_id', 'char(24)'],
  ['slug', 'text'],
  ['url', 'text'],
  ['title', 'text'],
  ['description', 'text'],
  ['status', 'boolean'],
  ['password_hash', 'text'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['redirect_type', 'smallint'],
  ['expires_at', 'timestamptz'],
  ['expired_url', 'text'],
  ['utm', 'jsonb'],
  ['targets', 'jsonb'],
  ['tag_ids', 'char(24)[]'],
  ['clicks', 'bigint'],
  ['max_visits', 'integer'],
  ['is_favorite', 'boolean'],
];

/** A link's props as one row of NEW_LINK_COLUMNS (tag ids as an array literal: ids are hex, nothing to quote). */
const newLinkRow = (p: LinkProps): unknown[] => [
  p.id,
  p.domainId,
  p.slug,
  p.url,
  p.title,
  p.description,
  p.status,
  p.passwordHash,
  p.createdAt,
  p.updatedAt,
  ...optionParams(p.options),
  `{${p.tagIds.join(',')}}`,
  p.clicks,
  p.options?.maxVisits ?? null,
  p.isFavorite ?? false,
];

/** The writes a new link's rows may need besides its own, each a CTE of INSERT_COUNTED named as here. */
const OPTIONAL_WRITES = {
  tags: [
    'tagged',
    'INSERT INTO link_tags (link_id, tag_id) SELECT link.id, t.tag_id FROM link ' +
      'JOIN input ON input.id = link.id, unnest(input.tag_ids) AS t (tag_id)',
  ],
  clicks: [
    'clicked',
    'INSERT INTO link_clicks (link_id, clicks) SELECT link.id, input.clicks ' +
      'FROM link JOIN input ON input.id = link.id WHERE input.clicks > 0',
  ],
  limits: [
    'limited',
    'INSERT INTO link_visit_limits (link_id, max_visits) SELECT link.id, input.max_visits ' +
      'FROM link JOIN input ON input.id = link.id WHERE input.max_visits IS NOT NULL',
  ],
} as const;
type OptionalWrite = keyof typeof OPTIONAL_WRITES;

/**
 * The insert of new links of one owner ($2) under the quota ($3 resource, $4 limit), the rows in $1: see
 * insertRows. A slug taken on its domain skips its link (ON CONFLICT on the slug index): only what is
 * written is counted, and the ids written come back. The tags, click totals and visit limits are written
 * only by the statements whose rows have some: an INSERT with no row still opens and locks its table and
 * its indexes (three empty ones were a quarter of a single link's statement, prepared); eight texts at most,
 * each prepared (see `prepared`). The main SELECT reads every CTE, so each has run before it takes the usage row.
 */
function insertCountedStatement(needed: OptionalWrite[]): string {
  const writes = needed.map((write) => OPTIONAL_WRITES[write]);
  return `WITH input AS (SELECT * FROM ${jsonRowsOf(1, NEW_LINK_COLUMNS, 'r')}),
  link AS (
    INSERT INTO links (id, owner_id, domain_id, slug, url, title, description, status, password_hash, created_at, updated_at, redirect_type,
      expires_at, expired_url, utm, targets, is_favorite)
    SELECT id, $2, domain_id, slug, url, title, description, status, password_hash, created_at, updated_at, redirect_type, expires_at,
      expired_url, utm, targets, is_favorite FROM input
    ON CONFLICT ((COALESCE(domain_id, '')), slug) DO NOTHING
    RETURNING id, owner_id
  ), ${writes.map(([name, insert]) => `${name} AS (${insert} RETURNING 1), `).join('')}written AS (
    SELECT COALESCE(array_agg(id), '{}'::char(24)[]) AS ids, count(*) AS n FROM link
  )
  SELECT links_usage_take($2, $3, ${LINK_USAGE_STRIPES}, written.n, $4) AS used, written.ids AS ids
  FROM written${writes.map(([name]) => `, (SELECT count(*) FROM ${name}) AS ${name}_n`).join('')}`;
}

/** insertCountedStatement's eight texts, by `tags | clicks << 1 | limits << 2` (OPTIONAL_WRITES' order). */
const INSERT_COUNTED = Array.from({ length: 8 }, (_, bits) =>
  prepared(insertCountedStatement((Object.keys(OPTIONAL_WRITES) as OptionalWrite[]).filter((_write, i) => (bits >> i) & 1))),
);

/** The INSERT_COUNTED text for these links: what they hold besides their own row. */
function insertCountedFor(rows: LinkProps[]): PreparedStatement {
  const tags = rows.some((p) => p.tagIds.length > 0);
  const clicks = rows.some((p) => p.clicks > 0);
  const limits = rows.some((p) => (p.options?.maxVisits ?? null) !== null);
  return INSERT_COUNTED[(tags ? 1 : 0) | (clicks ? 2 : 0) | (limits ? 4 : 0)];
}

/** What the owner held when `links_usage_take` refused a creation, or null for any other error. */
function quotaReached(error: unknown): number | null {
  const driverError =
    (error as { driverError?: { code?: string; detail?: string } }).driverError ?? (error as { code?: string; detail?: string });
  return driverError?.code === 'LQ001' ? Number(driverError.detail) : null;
}

const SLUG_TAKEN = { constraint: 'links_domain_slug_key', field: 'slug', message: 'slug is already taken on this domain' };

/** The owner's row in `links_usage` (see its migration): what the quota and the list's total read. */
const LINKS_USAGE = { table: 'links_usage', resource: 'links', stripes: LINK_USAGE_STRIPES };

/** The owner's link count, in the statement's snapshot: the sum of its rows (see the LinksUsageStripes migration). */
const LINKS_TOTAL = `SELECT COALESCE((SELECT sum(used) FROM links_usage WHERE owner_id = $1 AND resource = 'links'), 0) AS total`;

/** A title as the title sort compares it (links_owner_title_idx's expression): lowercased, in code point order. */
const titleKey = (alias: string) => `lower(${alias}.title) COLLATE "C"`;

/** `params` with `value` added, and its placeholder: the id cast to the column's type, so the index compares it. */
function param(params: unknown[], value: string): string {
  params.push(value);
  return `$${params.length}::char(24)`;
}

/** `params` with `value` added, and its placeholder (text). */
function textParam(params: unknown[], value: string): string {
  params.push(value);
  return `$${params.length}`;
}

/**
 * A sort's SQL over the rows of `alias`: its ORDER BY, and the condition of the rows after a cursor's
 * position (the last item's sort values, then its id: see LinkRepository.listOfOwner).
 */
interface SortSql {
  order: (alias: string) => string;
  after: (alias: string, position: Keyset, params: unknown[]) => string;
}
const lastOf = (position: Keyset): string => position[position.length - 1];
const SORTS: Record<LinkSort, SortSql> = {
  newest: { order: (a) => `${a}.id DESC`, after: (a, position, params) => `${a}.id < ${param(params, lastOf(position))}` },
  oldest: { order: (a) => `${a}.id`, after: (a, position, params) => `${a}.id > ${param(params, lastOf(position))}` },
  title: {
    order: (a) => `${titleKey(a)}, ${a}.id`,
    after: (a, position, params) => `(${titleKey(a)}, ${a}.id) > (${textParam(params, position[0])}, ${param(params, lastOf(position))})`,
  },
};

/**
 * A page of links with the total it is a page of, in one statement (one snapshot, one round trip): one row
 * per link in the sort's order, or one row with null columns and the total when the page is empty.
 * `totalSql` answers one row with `total`; `pageSql` the ids of the page. Each row carries its title as
 * the title sort compares it (`title_key`), its cursor position in that sort.
 */
const pageStatement = (totalSql: string, pageSql: string, sort: SortSql = SORTS.newest) =>
  `SELECT t.total, lower(p.title) AS title_key, p.* FROM (${totalSql}) t LEFT JOIN (SELECT ${COLUMNS} ` +
  `FROM links l WHERE l.owner_id = $1 AND l.id IN (${pageSql})) p ON true ORDER BY ${sort.order('p')}`;

/** The page of links from pageStatement's rows; each item's position in `sort`. */
function pageOfRows(rows: Row[], page: PageRequest, sort: LinkSort): Page<Link> {
  const found = pageOf(
    rows.filter((r) => r['id'] !== null),
    int(rows[0], 'total'),
    page,
    (r) => (sort === 'title' ? [text(r, 'title_key'), text(r, 'id')] : [text(r, 'id')]),
  );
  return { ...found, items: found.items.map(toLink) };
}

/**
 * The page of one tag's links newest or oldest first (its id the last of `params`): the tag's entries of
 * link_tags' (tag_id, link_id) index walked from the position, stopping at the page (at 100,000 links,
 * the matches read and sorted whole were 180 ms a page), and their count from the same index. A link
 * carries only its owner's tags, so the tag being the owner's ($1) makes its links the owner's (and
 * pageStatement reads only the owner's links besides): another account's tag answers nothing.
 */
function tagWalk(params: unknown[], sort: SortSql, page: PageRequest, window: string): string {
  const tag = `$${params.length}::char(24)`;
  const owned = `EXISTS (SELECT 1 FROM tags t WHERE t.id = ${tag} AND t.owner_id = $1)`;
  const tagged = `(SELECT lt.link_id AS id FROM link_tags lt WHERE lt.tag_id = ${tag} AND ${owned}) g`;
  const after = page.after ? `WHERE ${sort.after('g', page.after, params)}` : '';
  return pageStatement(
    `SELECT count(*) AS total FROM ${tagged}`,
    `SELECT g.id FROM ${tagged} ${after} ORDER BY ${sort.order('g')} ${window}`,
    sort,
  );
}

/** Whether a list view is the plain one (every link, newest first): the reads tuned for it answer it. */
const isPlainView = (view: LinkListView): boolean => (view.sort ?? 'newest') === 'newest' && view.tagId === undefined && !view.favorite;

/** Pages that end within this many of the owner's newest links are read from that end only (see listOfOwner). */
const NEAR_THE_NEWEST = 1000;

export class TypeormLinkRepository extends OwnedRowsRepository<LinkProps> implements LinkRepository {
  /**
   * `nearTheNewest`: see NEAR_THE_NEWEST (tests set 0 to read every page through the statement for any offset).
   * `changes`: told of every owner whose links a write of this repository may have changed, once the write's
   * transaction has ended (see `reporting`): the list cache's invalidation, in the one place every write
   * of links goes through. The click totals (addClicks) are not reported: see ListLinksUseCase's cache.
   */
  constructor(
    dataSource: DataSource,
    private readonly nearTheNewest = NEAR_THE_NEWEST,
    private readonly changes: LinkListChanges | null = null,
  ) {
    super(dataSource, 'links', LINKS_USAGE, SLUG_TAKEN);
  }

  /**
   * Runs a write of the owner's links, then reports the owner once its transaction has ended (at once
   * outside one, else at the COMMIT or ROLLBACK of the caller's unit of work): a list read between the
   * report and the COMMIT would put the old answer back. Reported whatever the outcome (a failed write
   * costs one read again; a COMMIT whose outcome is unknown may have changed the rows).
   */
  private async reporting<T>(ownerId: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      const changes = this.changes;
      if (changes) whenTransactionEnds(() => changes.linksChanged(ownerId));
    }
  }

  /**
   * One statement, committed on its own (or in the caller's unit of work): the link, its tags, clicks and
   * visit limit first, then `links_usage_take` on the owner's usage row of this connection (see the
   * LinksUsageStripes migration), taken last. The main SELECT reads every CTE, so they have all run before
   * it takes the row; what PostgreSQL queues to the end of the statement (the foreign-key checks, the usage
   * trigger) and the commit run holding it, with no client round trip. A full quota rolls the statement
   * back (LQ001, the count it found in DETAIL).
   */
  protected async insertCounted(p: LinkProps, quota: Quota): Promise<void> {
    const written = await this.insertRows([p], quota);
    if (!written.has(p.id)) throw ValidationError.field(SLUG_TAKEN.field, SLUG_TAKEN.message);
  }

  /** Many links in the one statement of insertCounted (the same quota check, counting every link it writes). */
  async insertManyWithinQuota(links: Link[], limit: number): Promise<{ taken: string[] }> {
    if (!links.length) return { taken: [] };
    const props = links.map((l) => l.toProps());
    const ownerId = props[0].ownerId;
    if (props.some((p) => p.ownerId !== ownerId)) throw new Error('insertManyWithinQuota: links of one owner only');
    const written = await this.insertRows(props, { ...LINKS_USAGE, ownerId, limit });
    return { taken: props.filter((p) => !written.has(p.id)).map((p) => p.id) };
  }

  /** INSERT_COUNTED over the rows; the ids it wrote (a slug taken on its domain skips its link). */
  private insertRows(rows: LinkProps[], quota: Quota): Promise<Set<string>> {
    return this.reporting(quota.ownerId, () => this.insertRowsUnreported(rows, quota));
  }

  private async insertRowsUnreported(rows: LinkProps[], quota: Quota): Promise<Set<string>> {
    try {
      const { rows: result } = await sql(this.dataSource, insertCountedFor(rows), [
        jsonRows(rows.map(newLinkRow)),
        quota.ownerId,
        quota.resource,
        quota.limit,
      ]);
      return new Set(result.length ? textArray(result[0], 'ids') : []);
    } catch (error) {
      const used = quotaReached(error);
      if (used !== null) throw new QuotaExceededError(quota.resource, used, quota.limit);
      throw error;
    }
  }

  async findOfOwner(ownerId: string, id: string): Promise<Link | null> {
    return firstOf(await sql(this.dataSource, LINK_OF_OWNER, [id, ownerId]), toLink);
  }

  async findManyOfOwner(ownerId: string, ids: string[]): Promise<Link[]> {
    if (!ids.length) return [];
    const { rows } = await sql(
      this.dataSource,
      `SELECT ${COLUMNS} FROM links l WHERE l.owner_id = $1 AND l.id = ANY($2::char(24)[]) ORDER BY l.id`,
      [ownerId, ids],
    );
    return rows.map(toLink);
  }

  async listOfOwner(ownerId: string, query: string | undefined, page: PageRequest, view: LinkListView = {}): Promise<Page<Link>> {
    if (query || !isPlainView(view)) return this.listMatching([ownerId], [], query, page, view);
    const { start, limit } = page;
    let statement: string;
    const params: unknown[] = [ownerId];
    if (page.after) {
      // A cursor's page: the index on (owner_id, id) entered at the position, whatever its depth.
      statement = pageStatement(
        LINKS_TOTAL,
        'SELECT l.id FROM links l WHERE l.owner_id = $1 ' +
          `AND ${SORTS.newest.after('l', page.after, params)} ORDER BY l.owner_id, l.id DESC ` +
          `LIMIT ${page.rows}`,
      );
    } else if (start + limit <= this.nearTheNewest) {
      // The first pages (most reads) walk at most `nearTheNewest` index entries from the newest link: the
      // statement below without the other end's branch, whose planning was a third of the first page's
      // database time (EXPLAIN: 0.88 instead of 1.25 ms a call). The total is the usage counter, as below.
      statement = pageStatement(
        LINKS_TOTAL,
        `SELECT l.id FROM links l WHERE l.owner_id = $1 ORDER BY l.owner_id, l.id DESC LIMIT ${limit} OFFSET ${start}`,
      );
    } else {
      // The total is the usage counter, in this statement's snapshot: exact for this page. A page in the older
      // half is an offset from the oldest link: the index walk before it stays under half of the owner's links
      // (the last page of 100,000 walked them all, 37 ms; walked from its own end, 0.05 ms).
      statement = `WITH usage AS (${LINKS_TOTAL}) ${pageStatement(
        'SELECT total FROM usage',
        `(SELECT l.id FROM links l WHERE l.owner_id = $1 AND ${start} < (SELECT total FROM usage) - ${start}
             ORDER BY l.owner_id, l.id DESC LIMIT ${limit} OFFSET ${start})
           UNION ALL
           (SELECT l.id FROM links l WHERE l.owner_id = $1 AND ${start} >= (SELECT total FROM usage) - ${start}
             ORDER BY l.owner_id, l.id LIMIT (SELECT greatest(least(${limit}, total - ${start}), 0) FROM usage)
             OFFSET (SELECT greatest(total - ${start} - ${limit}, 0) FROM usage))`,
      )}`;
    }
    const { rows } = await sql(this.dataSource, statement, params);
    return pageOfRows(rows, page, 'newest');
  }

  /**
   * A page of the owner's ($1) links that meet `conditions` (over `l`, their values in `params` after the
   * owner), the search and the view's filters, in the view's order. Filtered, every match is needed for the
   * total: they are read once (the trigram index for a search, link_tags_tag_link_idx for a tag, the favourites'
   * partial index) into a materialised set the page is taken from (left to itself, a search's page walked
   * the primary key newest first and filtered out 60,000 rows). Unfiltered, the page is a walk of the sort's
   * index (entered at a cursor's position) and the total the usage counter; a tag alone, newest or oldest
   * first, walks link_tags' (tag_id, link_id) index the same way (see tagWalk).
   */
  private async listMatching(
    params: unknown[],
    conditions: string[],
    query: string | undefined,
    page: PageRequest,
    view: LinkListView,
  ): Promise<Page<Link>> {
    const sortName = view.sort ?? 'newest';
    const sort = SORTS[sortName];
    const where = ['l.owner_id = $1', ...conditions];
    if (query)
      where.push(`lower(l.title || ' ' || l.slug || ' ' || l.url) LIKE ${textParam(params, containsPattern(query.toLowerCase()))}`);
    if (view.tagId !== undefined)
      where.push(`EXISTS (SELECT 1 FROM link_tags lt WHERE lt.link_id = l.id AND lt.tag_id = ${param(params, view.tagId)})`);
    if (view.favorite) where.push('l.is_favorite');
    const window = `LIMIT ${page.rows} OFFSET ${page.offset}`;
    let statement: string;
    if (view.tagId !== undefined && where.length === 2 && sortName !== 'title') {
      statement = tagWalk(params, sort, page, window);
    } else if (where.length === 1) {
      const after = page.after ? `AND ${sort.after('l', page.after, params)}` : '';
      statement = pageStatement(
        LINKS_TOTAL,
        `SELECT l.id FROM links l WHERE l.owner_id = $1 ${after} ORDER BY l.owner_id, ${sort.order('l')} ${window}`,
        sort,
      );
    } else {
      const after = page.after ? `WHERE ${sort.after('m', page.after, params)}` : '';
      const matchesPage = pageStatement(
        'SELECT count(*) AS total FROM matches',
        `SELECT m.id FROM matches m ${after} ORDER BY ${sort.order('m')} ${window}`,
        sort,
      );
      statement = `WITH matches AS MATERIALIZED (SELECT l.id, l.title FROM links l WHERE ${where.join(' AND ')})
        ${matchesPage}`;
    }
    const { rows } = await sql(this.dataSource, statement, params);
    return pageOfRows(rows, page, sortName);
  }

  async update(link: Link, unchangedSince?: Date): Promise<boolean> {
    const p = link.toProps();
    return this.reporting(p.ownerId, () => this.updateUnreported(p, unchangedSince ?? null));
  }

  private async updateUnreported(p: LinkProps, unchangedSince: Date | null): Promise<boolean> {
    return guardUnique(SLUG_TAKEN, () =>
      inTransaction(this.dataSource, async () => {
        // The condition and the write are one statement: a write that came between the caller's read and
        // this one moved updated_at on, and this one then changes nothing (If-Match, no lost update).
        const { affected } = await sql(
          this.dataSource,
          `UPDATE links SET domain_id = $3, slug = $4, url = $5, title = $6, description = $7, status = $8, password_hash = $9,
                  updated_at = GREATEST($10, updated_at + interval '1 millisecond'),
                  redirect_type = $11, expires_at = $12, expired_url = $13, utm = $14::jsonb, targets = $15::jsonb, is_favorite = $17
            WHERE id = $1 AND owner_id = $2 AND ($16::timestamptz IS NULL OR updated_at = $16)`,
          [
            p.id,
            p.ownerId,
            p.domainId,
            p.slug,
            p.url,
            p.title,
            p.description,
            p.status,
            p.passwordHash,
            p.updatedAt,
            ...optionParams(p.options),
            unchangedSince,
            p.isFavorite ?? false,
          ],
        );
        if (affected === 0) return false;
        // The visit limit: set or changed (the visits used so far kept), or gone with its count.
        const maxVisits = p.options?.maxVisits ?? null;
        if (maxVisits === null) await sql(this.dataSource, 'DELETE FROM link_visit_limits WHERE link_id = $1', [p.id]);
        else
          await sql(
            this.dataSource,
            'INSERT INTO link_visit_limits (link_id, max_visits) VALUES ($1, $2) ' +
              'ON CONFLICT (link_id) DO UPDATE SET max_visits = EXCLUDED.max_visits',
            [p.id, maxVisits],
          );
        await this.replaceTags(p.id, p.tagIds);
        return true;
      }),
    );
  }

  /** One statement after the owner's usage row is taken (as deleteOfOwner: see deleteCounted). */
  async deleteManyOfOwner(ownerId: string, ids: string[]): Promise<DeletedLink[]> {
    if (!ids.length) return [];
    const result = await this.reporting(ownerId, () =>
      deleteCounted(this.dataSource, { ...LINKS_USAGE, ownerId }, () =>
        sql(this.dataSource, 'DELETE FROM links WHERE owner_id = $1 AND id = ANY($2::char(24)[]) RETURNING id, domain_id, slug', [
          ownerId,
          ids,
        ]),
      ),
    );
    return rowsOf(result, (r) => ({ id: text(r, 'id'), domainId: textOrNull(r, 'domain_id'), slug: text(r, 'slug') }));
  }

  /**
   * One transaction: the owner's links among `ids` locked in id order (two writers cannot deadlock), the
   * tags taken off and put on, then the tag count of each link checked.
   */
  async retagManyOfOwner(ownerId: string, ids: string[], add: string[], remove: string[], maxTags: number): Promise<string[]> {
    if (!ids.length) return [];
    return this.reporting(ownerId, () => this.retagUnreported(ownerId, ids, add, remove, maxTags));
  }

  private retagUnreported(ownerId: string, ids: string[], add: string[], remove: string[], maxTags: number): Promise<string[]> {
    return inTransaction(this.dataSource, async () => {
      const found = rowsOf(
        await sql(this.dataSource, 'SELECT id FROM links WHERE owner_id = $1 AND id = ANY($2::char(24)[]) ORDER BY id FOR UPDATE', [
          ownerId,
          ids,
        ]),
        (r) => text(r, 'id'),
      );
      if (!found.length) return [];
      // A link's tags are part of it: its updatedAt moves on, as with every write of it (see update).
      await sql(
        this.dataSource,
        "UPDATE links SET updated_at = GREATEST(now(), updated_at + interval '1 millisecond') WHERE id = ANY($1::char(24)[])",
        [found],
      );
      if (remove.length)
        await sql(this.dataSource, 'DELETE FROM link_tags WHERE link_id = ANY($1::char(24)[]) AND tag_id = ANY($2::char(24)[])', [
          found,
          remove,
        ]);
      if (add.length) {
        await sql(
          this.dataSource,
          'INSERT INTO link_tags (link_id, tag_id) SELECT l, t FROM unnest($1::char(24)[]) ' +
            'AS l, unnest($2::char(24)[]) AS t ORDER BY 1, 2 ON CONFLICT DO NOTHING',
          [found, add],
        );
        const over = await countOf(
          this.dataSource,
          'SELECT count(*) AS n FROM (SELECT link_id FROM link_tags ' +
            'WHERE link_id = ANY($1::char(24)[]) GROUP BY link_id ' +
            'HAVING count(*) > $2) o',
          [found, maxTags],
        );
        // Thrown inside the transaction: it rolls back, and no link changes.
        if (over > 0) throw ValidationError.field('add', `a link carries at most ${maxTags} tags: ${over} of these links would carry more`);
      }
      return found;
    });
  }

  override deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    return this.reporting(ownerId, () => super.deleteOfOwner(ownerId, id));
  }

  override deleteAllOfOwner(ownerId: string): Promise<void> {
    return this.reporting(ownerId, () => super.deleteAllOfOwner(ownerId));
  }

  async batchOfOwner(ownerId: string, afterId: string | null, limit: number): Promise<Link[]> {
    const { rows } = await sql(
      this.dataSource,
      `SELECT ${COLUMNS} FROM links l WHERE l.owner_id = $1 AND l.id > $2 ` +
        `ORDER BY l.owner_id, l.id LIMIT ${Math.max(1, Math.floor(limit))}`,
      [ownerId, afterId ?? ''],
    );
    return rows.map(toLink);
  }

  countUsingDomain(ownerId: string, domainId: string): Promise<number> {
    return countOf(this.dataSource, 'SELECT count(*) AS n FROM links WHERE owner_id = $1 AND domain_id = $2', [ownerId, domainId]);
  }

  async idsTaggedWith(ownerId: string, tagId: string): Promise<string[]> {
    const result = await sql(
      this.dataSource,
      'SELECT l.id FROM links l JOIN link_tags lt ON lt.link_id = l.id WHERE l.owner_id = $1 AND lt.tag_id = $2 ORDER BY l.id',
      [ownerId, tagId],
    );
    return rowsOf(result, (r) => text(r, 'id'));
  }

  async findForRedirect(domainId: string | null, slug: string): Promise<RedirectTarget | null> {
    // The hot path's one query: the expression index on (COALESCE(domain_id, ''), slug), no entity hydration.
    return firstOf(await sql(this.dataSource, REDIRECT_LOOKUP, [domainId ?? '', slug]), redirectTarget);
  }

  /**
   * Adds to the click totals in `link_clicks` (see its migration for why not on `links`), in link order so
   * that two writers cannot deadlock: in chunks of ascending ids (the event loop answers requests between
   * two), in one transaction. A link deleted since its clicks were counted is skipped; one deleted between a
   * statement's read and its insert fails the write, which the click buffer retries.
   */
  async addClicks(visitsByLink: Map<string, number>): Promise<void> {
    if (!visitsByLink.size) return;
    const ids = [...visitsByLink.keys()].sort();
    await inTransaction(this.dataSource, async () => {
      for (let start = 0; start < ids.length; start += CLICK_TOTALS_CHUNK) {
        const rows = ids.slice(start, start + CLICK_TOTALS_CHUNK).map((id) => [id, visitsByLink.get(id)]);
        await sql(
          this.dataSource,
          `INSERT INTO link_clicks (link_id, clicks)
           SELECT v.id, v.n FROM ${jsonRowsOf(1, CLICK_TOTAL_COLUMNS, 'v')} JOIN links l ON l.id = v.id ORDER BY v.id
           ON CONFLICT (link_id) DO UPDATE SET clicks = link_clicks.clicks + EXCLUDED.clicks`,
          [jsonRows(rows)],
        );
      }
    });
  }

  /** The owner's links expired at `now` (or not), with the search and view of listOfOwner; the total counts the matches. */
  listOfOwnerByExpiry(
    ownerId: string,
    expired: boolean,
    now: Date,
    query: string | undefined,
    page: PageRequest,
    view: LinkListView = {},
  ): Promise<Page<Link>> {
    return this.listMatching([ownerId, now], [`${expired ? '' : 'NOT '}${expiredAt('$2')}`], query, page, view);
  }

  private async replaceTags(linkId: string, tagIds: string[]): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM link_tags WHERE link_id = $1', [linkId]);
    if (tagIds.length)
      await sql(this.dataSource, 'INSERT INTO link_tags (link_id, tag_id) SELECT $1, unnest($2::char(24)[])', [linkId, tagIds]);
  }
}
