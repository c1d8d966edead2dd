import { ArrayMaxSize, IsArray, IsISO8601, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Omittable } from '../../envelope/validation.pipe';

@JSONSchema({ example: { name: 'Deploy script', description: 'Creates links from CI', scopes: ['links:read', 'links:write'] } })
export class CreateTokenDto {
  @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @Omittable() @IsString() @MaxLength(500) description?: string;
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) scopes!: string[];
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsISO8601({ strict: true }) expiresAt?: string | null;
  @JSONSchema({ description: 'The account password: required unless the token making the request comes from a password or identity-provider sign-in in the last 10 minutes (so always when a personal access token makes the request). Never echoed.' })
  @Omittable() @IsString() @MaxLength(1024) currentPassword?: string;
}
