import { EntitySchema } from 'typeorm';

// Repositories here speak SQL (searches, quotas, link-tag sets); the schemas register the tables with
// TypeORM so its metadata knows them.
export const LinkSchema = new EntitySchema<{ id: string }>({
  name: 'Link',
  tableName: 'links',
  columns: { id: { type: 'char', length: 24, primary: true } },
});

export const TagSchema = new EntitySchema<{ id: string }>({
  name: 'Tag',
  tableName: 'tags',
  columns: { id: { type: 'char', length: 24, primary: true } },
});
