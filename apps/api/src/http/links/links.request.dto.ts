import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { Type } from 'class-transformer';

/**
 * The fields of a link, for creation and (partial) update alike. Every field is optional here: whether
 * `url` is required is the domain's rule (creation needs it), so both routes give the same errors.
 */
export class LinkFieldsDto {
  @IsOptional() @IsString() @MaxLength(4096) url?: string;
  @IsOptional() @IsString() @MaxLength(64) slug?: string;
  @IsOptional() @IsString() @MaxLength(200) title?: string;
  @IsOptional() @IsString() @MaxLength(1000) description?: string;
  @IsOptional() @IsBoolean() status?: boolean;
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() @MaxLength(64) domainId?: string | null;
  @IsOptional() @IsBoolean() hasPassword?: boolean;
  @IsOptional() @IsString() @MaxLength(1024) password?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(64, { each: true }) tags?: string[];
}

export class CreateTagDto {
  @IsString() @MaxLength(64) name!: string;
  @IsOptional() @IsBoolean() isFavorite?: boolean;
}

export class UpdateTagDto {
  @IsOptional() @IsString() @MaxLength(64) name?: string;
  @IsOptional() @IsBoolean() isFavorite?: boolean;
}

export class QrQueryDto {
  @IsOptional() @IsIn(['png', 'svg']) format?: 'png' | 'svg';
  /** Width in pixels. */
  @IsOptional() @Type(() => Number) @IsInt() @Min(64) @Max(2048) size?: number;
}
