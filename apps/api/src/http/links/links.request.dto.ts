import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { Omittable } from '../../envelope/validation.pipe';
import { Type } from 'class-transformer';

/**
 * The fields of a link, for creation and (partial) update alike. Every field is optional here: whether
 * `url` is required is the domain's rule (creation needs it), so both routes give the same errors.
 */
export class LinkFieldsDto {
  @Omittable() @IsString() @MaxLength(4096) url?: string;
  @Omittable() @IsString() @MaxLength(64) slug?: string;
  @Omittable() @IsString() @MaxLength(200) title?: string;
  @Omittable() @IsString() @MaxLength(1000) description?: string;
  @Omittable() @IsBoolean() status?: boolean;
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() @MaxLength(64) domainId?: string | null;
  @Omittable() @IsBoolean() hasPassword?: boolean;
  @Omittable() @IsString() @MaxLength(1024) password?: string;
  @Omittable() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(64, { each: true }) tags?: string[];
}

export class CreateTagDto {
  @IsString() @MaxLength(64) name!: string;
  @Omittable() @IsBoolean() isFavorite?: boolean;
}

export class UpdateTagDto {
  @Omittable() @IsString() @MaxLength(64) name?: string;
  @Omittable() @IsBoolean() isFavorite?: boolean;
}

export class QrQueryDto {
  @Omittable() @IsIn(['png', 'svg']) format?: 'png' | 'svg';
  /** Width in pixels, at most 1024 (a larger image costs much more to draw and scans no better). */
  @Omittable() @Type(() => Number) @IsInt() @Min(64) @Max(1024) size?: number;
}
