import { DataSource } from 'typeorm';
import { Tag, TagRepository, TagWithCount } from '@lnk/links/domain';
import { Page, PageRequest, pageOf, QuotaExceededError, ValidationError } from '@lnk/shared/kernel';
import { containsPattern, inTransaction, isUniqueViolation, lockKey, sql } from '@lnk/shared/database';

type Row = Record<string, unknown>;

// linkCount counts the tag's links, which are always its owner's (tags are only put on own links).
const COLUMNS = `t.id, t.owner_id, t.name, t.is_favorite, t.created_at, t.updated_at,
  (SELECT count(*) FROM link_tags lt WHERE lt.tag_id = t.id) AS link_count`;

function toTag(r: Row): Tag {
  return new Tag({
    id: r['id'] as string,
    ownerId: r['owner_id'] as string,
    name: r['name'] as string,
    isFavorite: r['is_favorite'] as boolean,
    createdAt: new Date(r['created_at'] as string),
    updatedAt: new Date(r['updated_at'] as string),
  });
}

const withCount = (r: Row): TagWithCount => ({ tag: toTag(r), linkCount: Number(r['link_count']) });
const nameTaken = () => ValidationError.field('name', 'you already have a tag with this name');

export class TypeormTagRepository extends TagRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async insertWithinQuota(tag: Tag, limit: number): Promise<void> {
    const p = tag.toProps();
    try {
      await inTransaction(this.dataSource, async () => {
        await lockKey(this.dataSource, `tags:${p.ownerId}`);
        const used = await this.countOfOwner(p.ownerId);
        if (used >= limit) throw new QuotaExceededError('tags', used, limit);
        await sql(this.dataSource, 'INSERT INTO tags (id, owner_id, name, is_favorite, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)', [
          p.id, p.ownerId, p.name, p.isFavorite, p.createdAt, p.updatedAt,
        ]);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'tags_owner_name_key')) throw nameTaken();
      throw error;
    }
  }

  async listOfOwner(ownerId: string, query: string | undefined, page: PageRequest): Promise<Page<TagWithCount>> {
    const params: unknown[] = [ownerId];
    let where = 't.owner_id = $1';
    if (query) {
      params.push(containsPattern(query));
      where += ` AND t.name ILIKE $2`;
    }
    const [items, total] = await Promise.all([
      sql(this.dataSource, `SELECT ${COLUMNS} FROM tags t WHERE ${where} ORDER BY t.id DESC LIMIT ${page.limit} OFFSET ${page.start}`, params),
      sql<{ n: string }>(this.dataSource, `SELECT count(*) AS n FROM tags t WHERE ${where}`, params),
    ]);
    return pageOf(items.rows.map(withCount), Number(total.rows[0].n), page);
  }

  async favoritesOfOwner(ownerId: string): Promise<TagWithCount[]> {
    const { rows } = await sql(this.dataSource, `SELECT ${COLUMNS} FROM tags t WHERE t.owner_id = $1 AND t.is_favorite ORDER BY t.id DESC`, [ownerId]);
    return rows.map(withCount);
  }

  async findOfOwner(ownerId: string, id: string): Promise<TagWithCount | null> {
    const { rows } = await sql(this.dataSource, `SELECT ${COLUMNS} FROM tags t WHERE t.id = $1 AND t.owner_id = $2`, [id, ownerId]);
    return rows[0] ? withCount(rows[0]) : null;
  }

  async findManyOfOwner(ownerId: string, ids: string[]): Promise<Tag[]> {
    if (!ids.length) return [];
    const { rows } = await sql(this.dataSource, `SELECT ${COLUMNS} FROM tags t WHERE t.owner_id = $1 AND t.id = ANY($2::char(24)[])`, [ownerId, ids]);
    return rows.map(toTag);
  }

  async update(tag: Tag): Promise<void> {
    const p = tag.toProps();
    try {
      await sql(this.dataSource, 'UPDATE tags SET name = $3, is_favorite = $4, updated_at = $5 WHERE id = $1 AND owner_id = $2', [p.id, p.ownerId, p.name, p.isFavorite, p.updatedAt]);
    } catch (error) {
      if (isUniqueViolation(error, 'tags_owner_name_key')) throw nameTaken();
      throw error;
    }
  }

  async deleteOfOwner(ownerId: string, id: string): Promise<boolean> {
    return (await sql(this.dataSource, 'DELETE FROM tags WHERE id = $1 AND owner_id = $2', [id, ownerId])).affected > 0;
  }

  async countOfOwner(ownerId: string): Promise<number> {
    const { rows } = await sql<{ n: string }>(this.dataSource, 'SELECT count(*) AS n FROM tags WHERE owner_id = $1', [ownerId]);
    return Number(rows[0].n);
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM tags WHERE owner_id = $1', [ownerId]);
  }
}
