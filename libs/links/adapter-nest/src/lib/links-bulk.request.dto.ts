import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsObject, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MAX_BULK_ITEMS, MAX_TAGS_PER_LINK } from '@lnk/links/domain';
import { NOT_BLANK, Omittable } from '@lnk/shared/http';

/**
 * POST /user/link/bulk. Each item is checked on its own (as the body of POST /user/link, CreateLinkDto),
 * so one bad item is answered with its errors in its place instead of refusing the others.
 */
@JSONSchema({
  example: {
    links: [
      { url: 'https://example.com/a', slug: 'spring-a' },
      { url: 'https://example.com/b', title: 'B' },
    ],
  },
})
export class BulkCreateLinksDto {
  @JSONSchema({
    type: 'array',
    minItems: 1,
    maxItems: MAX_BULK_ITEMS,
    items: { $ref: '#/components/schemas/CreateLinkDto' },
    description: `1 to ${MAX_BULK_ITEMS} links, each as the body of POST /user/link.`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_ITEMS)
  @IsObject({ each: true })
  links!: Record<string, unknown>[];
}

const IDS_DESCRIPTION =
  `1 to ${MAX_BULK_ITEMS} ids of your links; an id that names none of yours (unknown, or ` +
  `another account's) is answered found: false and nothing is done to it.`;

/** DELETE /user/link/bulk. */
@JSONSchema({ example: { ids: ['665f1c2e9b1e8a0012345678', '665f1c2e9b1e8a0012345679'] } })
export class BulkLinkIdsDto {
  @JSONSchema({ description: IDS_DESCRIPTION })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_ITEMS)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  ids!: string[];
}

const NAMED = (field: string) => ({ required: [field], properties: { [field]: { minItems: 1 } } });

/** POST /user/link/bulk/tags: add or remove names a tag (the use case's rule, stated for the document). */
@JSONSchema({ example: { ids: ['665f1c2e9b1e8a0012345678'], add: ['spring'], remove: ['draft'] }, anyOf: [NAMED('add'), NAMED('remove')] })
export class BulkTagLinksDto {
  @JSONSchema({ description: IDS_DESCRIPTION })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_ITEMS)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  ids!: string[];
  @JSONSchema({
    description:
      'Tag names to put on each link: one of your tags of that name whatever its case, else a new tag (counted against your tag quota).',
    items: { pattern: NOT_BLANK },
  })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS_PER_LINK)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  add?: string[];
  @JSONSchema({
    description:
      'Tag names to take off each link (a name that is none of your tags is nothing to remove); a name is in add or in remove, not both.',
    items: { pattern: NOT_BLANK },
  })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS_PER_LINK)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  remove?: string[];
}

/** GET /user/link/export. */
export class ExportQueryDto {
  @JSONSchema({
    type: 'string',
    enum: ['csv', 'json'],
    description: 'csv (the default): text/csv, the columns an import takes; json: NDJSON (application/x-ndjson), one link object per line.',
  })
  @Omittable()
  @IsIn(['csv', 'json'])
  format?: 'csv' | 'json';
}
