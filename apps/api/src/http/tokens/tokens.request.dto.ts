import { ArrayMaxSize, IsArray, IsBoolean, IsISO8601, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { Omittable } from '../../envelope/validation.pipe';

export class CreateTokenDto {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @Omittable() @IsString() @MaxLength(500) description?: string;
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) scopes!: string[];
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsISO8601({ strict: true }) expiresAt?: string | null;
}

export class CreateOAuthClientDto {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @Omittable() @IsString() @MaxLength(500) description?: string;
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) scopes!: string[];
  @Omittable() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(2048, { each: true }) redirectUris?: string[];
}

export class UpdateOAuthClientDto {
  @Omittable() @IsString() @MinLength(1) @MaxLength(100) name?: string;
  @Omittable() @IsString() @MaxLength(500) description?: string;
  @Omittable() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) scopes?: string[];
  @Omittable() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(2048, { each: true }) redirectUris?: string[];
  @Omittable() @IsBoolean() isActive?: boolean;
}
