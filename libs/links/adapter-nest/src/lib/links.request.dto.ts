import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { SchemaObject } from '@nestjs/swagger';
import {
  checkDestinationUrl,
  checkExpiredUrl,
  checkLinkPassword,
  checkSlug,
  checkTagName,
  checkTargets,
  checkUtm,
  MAX_COUNTRY_TARGETS,
  MAX_LINK_PASSWORD,
  MAX_URL_LENGTH,
  MAX_UTM_VALUE_LENGTH,
  LINK_SORTS,
  type LinkListFilter,
  type LinkSort,
  MAX_VISITS_LIMIT,
  MIN_LINK_PASSWORD,
  parseExpiresAt,
  REDIRECT_TYPES,
  RESERVED_SLUGS,
  SLUG_PATTERN,
  TARGET_DEVICES,
  UTM_FIELDS,
} from '@lnk/links/domain';
import { Checked, HTTP_URL_PATTERN, NOT_BLANK, Nullable, Omittable, SearchPageQueryDto } from '@lnk/shared/http';
import { Type } from 'class-transformer';

/** `word` in any case, as a pattern (JSON Schema patterns take no flags). */
const anyCase = (word: string) => word.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);

/** The domain's slug rule as the document states it: its pattern, and not a reserved path (whatever the case). */
const SLUG_SCHEMA: SchemaObject = {
  pattern: SLUG_PATTERN.source,
  not: {
    pattern: `^(?:${[...RESERVED_SLUGS]
      .filter((s) => SLUG_PATTERN.test(s))
      .map(anyCase)
      .join('|')})$`,
  },
};

/**
 * A destination's form, as checkDestinationUrl checks it (the pipe checks the form only: whether it is a
 * host of this service depends on the configuration, and the use case checks that).
 */
const DESTINATION: SchemaObject = { format: 'uri', pattern: HTTP_URL_PATTERN };
const destination = (value: unknown, field: string) => checkDestinationUrl(value, [], field);

/** An object of a link option: these keys only, none required. */
const options = (properties: Record<string, SchemaObject>, extra: SchemaObject = {}): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...extra,
});

/**
 * The fields a link has besides its destination. Types and sizes are checked here, the rest by the links
 * domain (Checked: the same functions the use cases run, so a refused body is told of every bad field),
 * whose rules the document states; a verified domain and tags that exist are the use case's lookups.
 */
abstract class LinkOptionsDto {
  @JSONSchema({
    description:
      'The short URL\'s path: 1 to 64 letters, digits, "-" and "_", not a path of the ' +
      'service itself (oauth, user, docs, api, v1 ...); a random one when left out.',
  })
  @Omittable()
  @IsString()
  @MaxLength(64)
  @Checked(checkSlug, SLUG_SCHEMA)
  slug?: string;
  @Omittable() @IsString() @MaxLength(200) title?: string;
  @Omittable() @IsString() @MaxLength(1000) description?: string;
  @JSONSchema({ description: 'false: the short URL answers 404 until it is turned on again.' })
  @Omittable()
  @IsBoolean()
  status?: boolean;
  @JSONSchema({ description: "The id of one of your verified domains; null or left out: the service's own short domain." })
  @Nullable()
  @IsString()
  @MaxLength(64)
  domainId?: string | null;
  @JSONSchema({
    description: `true: visitors must type \`password\` (${MIN_LINK_PASSWORD} to ${MAX_LINK_PASSWORD} characters) before they are sent on.`,
  })
  @Omittable()
  @IsBoolean()
  hasPassword?: boolean;
  @JSONSchema({ description: 'Only with hasPassword true.' })
  @Omittable()
  @IsString()
  @MaxLength(1024)
  @Checked((value) => checkLinkPassword(value as string), { minLength: MIN_LINK_PASSWORD, maxLength: MAX_LINK_PASSWORD })
  password?: string;
  @JSONSchema({ description: 'Ids of your tags (GET /user/tag), at most 50.' })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  tags?: string[];
  @JSONSchema({
    description: "Marked favourite (the dashboard's star); GET /user/link?favorite=true lists only these. Left out on create: false.",
  })
  @Omittable()
  @IsBoolean()
  isFavorite?: boolean;

  // The options of issue 18, each optional: a body without them is answered as the spec's. Their rules
  // beyond the type (a future expiresAt, each destination checked as url is, device and country keys) are the domain's.
  @JSONSchema({
    type: 'integer',
    description:
      "The redirect's status: 301, 302 (the default), 307 or 308. Browsers may keep a 301 or 308 and " +
      'go straight to the destination next time: such visits are not seen or counted.',
  })
  @Omittable()
  @IsIn([...REDIRECT_TYPES])
  redirectType?: number;
  @JSONSchema({
    description:
      'When the link expires (ISO 8601 with its offset), in the future when set; null clears. After it the ' +
      'short URL answers expiredUrl (302) or a 410 page, never the destination, and counts no visit.',
  })
  @Nullable()
  @IsString()
  @MaxLength(64)
  @Checked(parseExpiresAt, { format: 'date-time' })
  expiresAt?: string | null;
  @JSONSchema({ description: 'Where visitors of the expired link go (302), checked as url is; null or left out: a 410 page.' })
  @Nullable()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  @Checked((value) => checkExpiredUrl(value, []), DESTINATION)
  expiredUrl?: string | null;
  @JSONSchema({
    description:
      'Exactly this many counted visits (not HEAD, not bots) reach the destination, however many instances answer; then the ' +
      'link is expired. Counted from when the limit is set; changing it keeps the visits used. null clears.',
  })
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(MAX_VISITS_LIMIT)
  maxVisits?: number | null;
  @JSONSchema({
    description:
      'UTM values added to the destination on every redirect as utm_source, utm_medium, utm_campaign, utm_term, ' +
      "utm_content (replacing the destination's own); a parameter the visitor's request carries wins. null clears.",
  })
  @Nullable()
  @IsObject()
  @Checked(
    checkUtm,
    options(
      Object.fromEntries(UTM_FIELDS.map((f) => [f, { type: 'string', minLength: 1, maxLength: MAX_UTM_VALUE_LENGTH, pattern: NOT_BLANK }])),
    ),
  )
  utm?: Record<string, unknown> | null;
  @JSONSchema({
    description:
      "Destinations by the visitor's country (ISO 3166-1 alpha-2 of the client address, upper case) " +
      'and device (ios: iPhone and iPad, android, desktop: a desktop browser), each checked as url is. ' +
      'The most specific match wins: country, then device, then url. null clears.',
  })
  @Nullable()
  @IsObject()
  @Checked(
    (value) => checkTargets(value, []),
    options({
      device: options(Object.fromEntries(TARGET_DEVICES.map((d) => [d, { type: 'string', ...DESTINATION }]))),
      country: {
        type: 'object',
        maxProperties: MAX_COUNTRY_TARGETS,
        description: 'Keys: ISO 3166-1 alpha-2 codes in upper case.',
        additionalProperties: { type: 'string', ...DESTINATION },
      },
    }),
  )
  targets?: Record<string, unknown> | null;
}

const URL_DESCRIPTION =
  `The destination: an absolute http(s) URL, at most ${MAX_URL_LENGTH} characters, with ` +
  'no user name or password in it and not on a short domain of this service.';

/** Said in the schema as in the domain: a password is taken with hasPassword true only. */
const HAS_PASSWORD = (value: boolean) => ({ required: ['hasPassword'], properties: { hasPassword: { enum: [value] } } });
const WITHOUT_PASSWORD = { not: { required: ['password'] } };

/** POST /user/link: the destination is required, everything else optional; a password with hasPassword true, and only then. */
@JSONSchema({
  example: { url: 'https://example.com/landing', title: 'Spring campaign landing page' },
  allOf: [{ anyOf: [WITHOUT_PASSWORD, HAS_PASSWORD(true)] }, { anyOf: [{ not: HAS_PASSWORD(true) }, { required: ['password'] }] }],
})
export class CreateLinkDto extends LinkOptionsDto {
  @JSONSchema({ description: URL_DESCRIPTION })
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  @Checked(destination, DESTINATION)
  url!: string;
}

/** PUT /user/link/:id: a partial update; only the fields sent change (hasPassword true alone keeps the password the link has). */
@JSONSchema({
  example: { title: 'Spring campaign landing page (updated)', status: true },
  anyOf: [WITHOUT_PASSWORD, { not: HAS_PASSWORD(false) }],
})
export class UpdateLinkDto extends LinkOptionsDto {
  @JSONSchema({ description: URL_DESCRIPTION })
  @Omittable()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  @Checked(destination, DESTINATION)
  url?: string;
}

@JSONSchema({ example: { name: 'campaign', isFavorite: true } })
export class CreateTagDto {
  @IsString() @MaxLength(64) @Checked(checkTagName, { pattern: NOT_BLANK }) name!: string;
  @Omittable() @IsBoolean() isFavorite?: boolean;
}

@JSONSchema({ example: { name: 'spring-campaign' } })
export class UpdateTagDto {
  @Omittable() @IsString() @MaxLength(64) @Checked(checkTagName, { pattern: NOT_BLANK }) name?: string;
  @Omittable() @IsBoolean() isFavorite?: boolean;
}

/** GET /user/link: the search and page, the expired, tag and favourite filters, and the order. */
export class LinkListQueryDto extends SearchPageQueryDto {
  @JSONSchema({
    type: 'string',
    enum: ['true', 'false'],
    description: 'true: only expired links (past expiresAt, or their maxVisits used up); false: only the others; left out: all.',
  })
  @Omittable()
  @IsIn(['true', 'false'])
  expired?: 'true' | 'false';
  @JSONSchema({
    description:
      "The id of one of your tags: only the links carrying it (another account's tag, or one deleted, matches nothing: an empty list).",
  })
  @Omittable()
  @IsString()
  @Matches(/^[0-9a-f]{24}$/, { message: 'tag must be a tag id (24 lowercase hex characters)' })
  tag?: string;
  @JSONSchema({
    type: 'string',
    enum: ['true', 'false'],
    description: 'true: only your favourite links (isFavorite); false or left out: all.',
  })
  @Omittable()
  @IsIn(['true', 'false'])
  favorite?: 'true' | 'false';
  @JSONSchema({
    type: 'string',
    enum: [...LINK_SORTS],
    description:
      'newest (the default) or oldest first, or title: A to Z by lowercased title (code point order, untitled ' +
      'links first), ties by id. Cursors are bound to the sort and filters they were made under.',
  })
  @Omittable()
  @IsIn([...LINK_SORTS])
  sort?: LinkSort;

  /** The filters and order asked for (favorite=false and sort=newest are the defaults: left out). */
  toFilter(): LinkListFilter {
    return {
      ...(this.expired === undefined ? {} : { expired: this.expired === 'true' }),
      ...(this.tag === undefined ? {} : { tagId: this.tag }),
      ...(this.favorite === 'true' ? { favorite: true } : {}),
      ...(this.sort === undefined || this.sort === 'newest' ? {} : { sort: this.sort }),
    };
  }
}

export class QrQueryDto {
  @Omittable() @IsIn(['png', 'svg']) format?: 'png' | 'svg';
  /** Width in pixels, at most 1024 (a larger image costs much more to draw and scans no better). */
  @Omittable() @Type(() => Number) @IsInt() @Min(64) @Max(1024) size?: number;
}
