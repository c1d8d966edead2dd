import { ArrayMaxSize, IsArray, IsString, MaxLength, MinLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { checkPatName, checkPatScopes, SCOPES } from '@lnk/identity/domain';
import { Checked, IsDateTime, NOT_BLANK, Nullable, Omittable } from '@lnk/shared/http';

@JSONSchema({ example: { name: 'Deploy script', description: 'Creates links from CI', scopes: ['links:read', 'links:write'] } })
export class CreateTokenDto {
  @IsString() @MinLength(1) @MaxLength(100) @Checked((value) => checkPatName(value as string), { pattern: NOT_BLANK }) name!: string;
  @Omittable() @IsString() @MaxLength(500) description?: string;
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Checked((value) => checkPatScopes(value as string[]), { minItems: 1, items: { enum: [...SCOPES] } })
  scopes!: string[];
  @JSONSchema({ description: 'When the token stops working, in the future; null or left out: never.' })
  @Nullable()
  @IsDateTime()
  expiresAt?: string | null;
  @JSONSchema({
    description:
      'The account password: required unless the token making the request comes from a password or identity-provider ' +
      'sign-in in the last 10 minutes (so always when a personal access token makes the request). Never echoed.',
  })
  @Omittable()
  @IsString()
  @MaxLength(1024)
  currentPassword?: string;
}
