import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MAX_URL_LENGTH } from '@lnk/links/domain';
import { Omittable } from '../../envelope/validation.pipe';
import { Type } from 'class-transformer';

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

export class QrQueryDto {
  @Omittable() @IsIn(['png', 'svg']) format?: 'png' | 'svg';
  /** Width in pixels, at most 1024 (a larger image costs much more to draw and scans no better). */
  @Omittable() @Type(() => Number) @IsInt() @Min(64) @Max(1024) size?: number;
}
