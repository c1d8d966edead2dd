import { ArrayMaxSize, IsArray, IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Omittable } from '../../envelope/validation.pipe';

@JSONSchema({ example: { name: 'My dashboard', scopes: ['links:read', 'stats:read'], redirectUris: ['https://app.example.com/callback'] } })
export class CreateOAuthClientDto {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @Omittable() @IsString() @MaxLength(500) description?: string;
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) scopes!: string[];
  @Omittable() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(2048, { each: true }) redirectUris?: string[];
}

@JSONSchema({ example: { name: 'My dashboard (renamed)', isActive: true } })
export class UpdateOAuthClientDto {
  @Omittable() @IsString() @MinLength(1) @MaxLength(100) name?: string;
  @Omittable() @IsString() @MaxLength(500) description?: string;
  @Omittable() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) scopes?: string[];
  @Omittable() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(2048, { each: true }) redirectUris?: string[];
  @Omittable() @IsBoolean() isActive?: boolean;
}
