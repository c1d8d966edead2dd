import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MAX_COUNTRY_TARGETS, MAX_URL_LENGTH, MAX_UTM_VALUE_LENGTH, MAX_VISITS_LIMIT, REDIRECT_TYPES, TARGET_DEVICES, UTM_FIELDS } from '@lnk/links/domain';
import { Omittable } from '../../envelope/validation.pipe';
import { Type } from 'class-transformer';
import { SearchPageQueryDto } from '../paging.request.dto';

/**
 * The fields a link has besides its destination. The domain checks the rest (slug characters, a verified
 * domain, tags that exist, the password's length when hasPassword is true).
 */
abstract class LinkOptionsDto {
  @JSONSchema({ description: 'The short URL\'s path: 1 to 64 letters, digits, "-" and "_"; a random one when left out.' })
  @Omittable() @IsString() @MaxLength(64) slug?: string;
  @Omittable() @IsString() @MaxLength(200) title?: string;
  @Omittable() @IsString() @MaxLength(1000) description?: string;
  @JSONSchema({ description: 'false: the short URL answers 404 until it is turned on again.' })
  @Omittable() @IsBoolean() status?: boolean;
  @JSONSchema({ description: 'The id of one of your verified domains; null or left out: the service\'s own short domain.' })
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() @MaxLength(64) domainId?: string | null;
  @JSONSchema({ description: 'true: visitors must type `password` (8 to 72 characters) before they are sent on.' })
  @Omittable() @IsBoolean() hasPassword?: boolean;
  @Omittable() @IsString() @MaxLength(1024) password?: string;
  @JSONSchema({ description: 'Ids of your tags (GET /user/tag), at most 50.' })
  @Omittable() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(64, { each: true }) tags?: string[];

  // The options of issue 18, each optional: a body without them is answered as the spec's. Their rules
  // beyond the type (a future expiresAt, each destination checked as url is, device and country keys) are the domain's.
  @JSONSchema({ type: 'integer', enum: [...REDIRECT_TYPES], description: 'The redirect\'s status: 301, 302 (the default), 307 or 308. Browsers may keep a 301 or 308 and go straight to the destination next time: such visits are not seen or counted.' })
  @Omittable() @IsIn([...REDIRECT_TYPES]) redirectType?: number;
  @JSONSchema({ type: 'string', format: 'date-time', nullable: true, description: 'When the link expires (ISO 8601 with its offset), in the future when set; null clears. After it the short URL answers expiredUrl (302) or a 410 page, never the destination, and counts no visit.' })
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() @MaxLength(64) expiresAt?: string | null;
  @JSONSchema({ type: 'string', format: 'uri', nullable: true, description: 'Where visitors of the expired link go (302), checked as url is; null or left out: a 410 page.' })
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() @MaxLength(MAX_URL_LENGTH) expiredUrl?: string | null;
  @JSONSchema({ type: 'integer', minimum: 1, maximum: MAX_VISITS_LIMIT, nullable: true, description: 'Exactly this many counted visits (not HEAD, not bots) reach the destination, however many instances answer; then the link is expired. Counted from when the limit is set; changing it keeps the visits used. null clears.' })
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsInt() @Min(1) @Max(MAX_VISITS_LIMIT) maxVisits?: number | null;
  @JSONSchema({
    type: 'object',
    nullable: true,
    additionalProperties: false,
    properties: Object.fromEntries(UTM_FIELDS.map((f) => [f, { type: 'string', minLength: 1, maxLength: MAX_UTM_VALUE_LENGTH }])),
    description: 'UTM values added to the destination on every redirect as utm_source, utm_medium, utm_campaign, utm_term, utm_content (replacing the destination\'s own); a parameter the visitor\'s request carries wins. null clears.',
  })
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsObject() utm?: Record<string, unknown> | null;
  @JSONSchema({
    type: 'object',
    nullable: true,
    additionalProperties: false,
    properties: {
      device: { type: 'object', additionalProperties: false, properties: Object.fromEntries(TARGET_DEVICES.map((d) => [d, { type: 'string', format: 'uri' }])) },
      country: { type: 'object', maxProperties: MAX_COUNTRY_TARGETS, description: 'Keys: ISO 3166-1 alpha-2 codes in upper case.', additionalProperties: { type: 'string', format: 'uri' } },
    },
    description: 'Destinations by the visitor\'s country (ISO 3166-1 alpha-2 of the client address, upper case) and device (ios: iPhone and iPad, android, desktop: a desktop browser), each checked as url is. The most specific match wins: country, then device, then url. null clears.',
  })
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsObject() targets?: Record<string, unknown> | null;
}

const URL_DESCRIPTION = `The destination: an absolute http(s) URL, at most ${MAX_URL_LENGTH} characters, with no user name or password in it and not on a short domain of this service.`;

/** POST /user/link: the destination is required, everything else optional. */
@JSONSchema({ example: { url: 'https://example.com/landing', title: 'Spring campaign landing page' } })
export class CreateLinkDto extends LinkOptionsDto {
  @JSONSchema({ description: URL_DESCRIPTION, format: 'uri' })
  @IsString() @MaxLength(MAX_URL_LENGTH) url!: string;
}

/** PUT /user/link/:id: a partial update; only the fields sent change. */
@JSONSchema({ example: { title: 'Spring campaign landing page (updated)', status: true } })
export class UpdateLinkDto extends LinkOptionsDto {
  @JSONSchema({ description: URL_DESCRIPTION, format: 'uri' })
  @Omittable() @IsString() @MaxLength(MAX_URL_LENGTH) url?: string;
}

@JSONSchema({ example: { name: 'campaign', isFavorite: true } })
export class CreateTagDto {
  @IsString() @MaxLength(64) name!: string;
  @Omittable() @IsBoolean() isFavorite?: boolean;
}

@JSONSchema({ example: { name: 'spring-campaign' } })
export class UpdateTagDto {
  @Omittable() @IsString() @MaxLength(64) name?: string;
  @Omittable() @IsBoolean() isFavorite?: boolean;
}

/** GET /user/link: the search and page, and the expired filter. */
export class LinkListQueryDto extends SearchPageQueryDto {
  @JSONSchema({ type: 'string', enum: ['true', 'false'], description: 'true: only expired links (past expiresAt, or their maxVisits used up); false: only the others; left out: all.' })
  @Omittable() @IsIn(['true', 'false']) expired?: 'true' | 'false';
}

export class QrQueryDto {
  @Omittable() @IsIn(['png', 'svg']) format?: 'png' | 'svg';
  /** Width in pixels, at most 1024 (a larger image costs much more to draw and scans no better). */
  @Omittable() @Type(() => Number) @IsInt() @Min(64) @Max(1024) size?: number;
}
