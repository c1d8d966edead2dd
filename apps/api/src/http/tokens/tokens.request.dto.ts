import { ArrayMaxSize, IsArray, IsBoolean, IsISO8601, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';

export class CreateTokenDto {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @IsOptional() @IsString() @MaxLength(500) description?: string;
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) scopes!: string[];
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsISO8601({ strict: true }) expiresAt?: string | null;
}

export class CreateOAuthClientDto {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @IsOptional() @IsString() @MaxLength(500) description?: string;
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) scopes!: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(2048, { each: true }) redirectUris?: string[];
}

export class UpdateOAuthClientDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(100) name?: string;
  @IsOptional() @IsString() @MaxLength(500) description?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) scopes?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(2048, { each: true }) redirectUris?: string[];
  @IsOptional() @IsBoolean() isActive?: boolean;
}
