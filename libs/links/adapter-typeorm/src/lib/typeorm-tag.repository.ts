import { DataSource } from 'typeorm';
import { Tag, TagProps, TagRepository, TagWithCount } from '@lnk/links/domain';
import { Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import {
  afterId,
  bool,
  containsPattern,
  countOf,
  firstOf,
  guardUnique,
  int,
  OwnedRowsRepository,
  Quota,
  Row,
  rowsOf,
  sql,
  text,
  timestamp,
} from '@lnk/shared/database';

// linkCount counts the tag's links, which are always its owner's (tags are only put on own links).
const COLUMNS = `t.id, t.owner_id, t.name, t.is_favorite, t.created_at, t.updated_at,
  (SELECT count(*) FROM link_tags lt WHERE lt.tag_id = t.id) AS link_count`;

const tagProps = (r: Row): TagProps => ({
  id: text(r, 'id'),
  ownerId: text(r, 'owner_id'),
  name: text(r, 'name'),
  isFavorite: bool(r, 'is_favorite'),
  createdAt: timestamp(r, 'created_at'),
  updatedAt: timestamp(r, 'updated_at'),
});
const toTag = (r: Row) => new Tag(tagProps(r));
const withCount = (r: Row): TagWithCount => ({ tag: toTag(r), linkCount: int(r, 'link_count') });

const NAME_TAKEN = { constraint: 'tags_owner_name_key', field: 'name', message: 'you already have a tag with this name' };

/** The owner's row in `links_usage` (see its migration): what the quota and the list's total read. */
const TAGS_USAGE = { table: 'links_usage', resource: 'tags', stripes: 1 };

export class TypeormTagRepository extends OwnedRowsRepository<TagProps> implements TagRepository {
  constructor(dataSource: DataSource) {
    super(dataSource, 'tags', TAGS_USAGE, NAME_TAKEN);
  }

  protected insertCounted(p: TagProps, quota: Quota): Promise<void> {
    return this.insertLockingFirst(quota, () =>
      sql(this.dataSource, 'INSERT INTO tags (id, owner_id, name, is_favorite, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        p.id,
        p.ownerId,
        p.name,
        p.isFavorite,
        p.createdAt,
        p.updatedAt,
      ]),
    );
  }

  async listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<TagWithCount>> {
    const params: unknown[] = [ownerId];
    let where = 't.owner_id = $1';
    if (query) {
      params.push(containsPattern(query));
      where += ` AND t.name ILIKE $2`;
    }
    const pageParams = [...params];
    const [items, total] = await Promise.all([
      sql(
        this.dataSource,
        `SELECT ${COLUMNS} FROM tags t ` +
          `WHERE ${where}${afterId(page, pageParams, 't.id')} ORDER BY t.id DESC ` +
          `LIMIT ${page.rows} OFFSET ${page.offset}`,
        pageParams,
      ),
      query ? countOf(this.dataSource, `SELECT count(*) AS n FROM tags t WHERE ${where}`, params) : this.countOfOwner(ownerId),
    ]);
    return pageOf(rowsOf(items, withCount), total, page, (t) => [t.tag.id]);
  }

  async favoritesOfOwner(ownerId: string): Promise<TagWithCount[]> {
    return rowsOf(
      await sql(this.dataSource, `SELECT ${COLUMNS} FROM tags t WHERE t.owner_id = $1 AND t.is_favorite ORDER BY t.id DESC`, [ownerId]),
      withCount,
    );
  }

  async findOfOwner(ownerId: string, id: string): Promise<TagWithCount | null> {
    return firstOf(
      await sql(this.dataSource, `SELECT ${COLUMNS} FROM tags t WHERE t.id = $1 AND t.owner_id = $2`, [id, ownerId]),
      withCount,
    );
  }

  async findManyOfOwner(ownerId: string, ids: string[]): Promise<Tag[]> {
    if (!ids.length) return [];
    return rowsOf(
      await sql(this.dataSource, `SELECT ${COLUMNS} FROM tags t WHERE t.owner_id = $1 AND t.id = ANY($2::char(24)[])`, [ownerId, ids]),
      toTag,
    );
  }

  async findByNamesOfOwner(ownerId: string, names: string[]): Promise<Tag[]> {
    if (!names.length) return [];
    // lower() on both sides, as the unique index on (owner_id, lower(name)) compares them.
    return rowsOf(
      await sql(
        this.dataSource,
        `SELECT ${COLUMNS} FROM tags t WHERE t.owner_id = $1 AND lower(t.name) IN (SELECT lower(n) FROM unnest($2::text[]) AS n)`,
        [ownerId, [...new Set(names)]],
      ),
      toTag,
    );
  }

  async update(tag: Tag, unchangedSince?: Date): Promise<boolean> {
    const p = tag.toProps();
    // The condition and the write are one statement, and updated_at always moves on: a write that came
    // between the caller's read and this one leaves this one changing nothing (If-Match, no lost update).
    const { affected } = await guardUnique(NAME_TAKEN, () =>
      sql(
        this.dataSource,
        `UPDATE tags SET name = $3, is_favorite = $4, updated_at = GREATEST($5, updated_at + interval '1 millisecond')
          WHERE id = $1 AND owner_id = $2 AND ($6::timestamptz IS NULL OR updated_at = $6)`,
        [p.id, p.ownerId, p.name, p.isFavorite, p.updatedAt, unchangedSince ?? null],
      ),
    );
    return affected > 0;
  }
}
