import { ArrayMaxSize, IsArray, IsBoolean, IsString, MaxLength, MinLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { checkClientName, checkRedirectUris, parseScopes, SCOPES } from '@lnk/identity/domain';
import { Checked, NOT_BLANK, Omittable } from '@lnk/shared/http';

/** The identity domain's rules of a client's fields, each with what the document says of it. */
const NAME = Checked(checkClientName, { pattern: NOT_BLANK });
const SCOPE_LIST = Checked((value, field) => parseScopes(value as string[], field), { items: { enum: [...SCOPES] } });
/** checkRedirectUris: absolute, https (plain http for a loopback host only, RFC 8252), no fragment. */
const REDIRECT_URIS = Checked((value, field) => checkRedirectUris(value as unknown[], field), {
  items: {
    format: 'uri',
    pattern: '^(?:[Hh][Tt][Tt][Pp][Ss]://|[Hh][Tt][Tt][Pp]://(?:localhost|127\\.0\\.0\\.1|\\[::1\\])(?:[:/?]|$))[^#]*$',
  },
});

@JSONSchema({ example: { name: 'My dashboard', scopes: ['links:read', 'stats:read'], redirectUris: ['https://app.example.com/callback'] } })
export class CreateOAuthClientDto {
  @IsString() @MinLength(1) @MaxLength(100) @NAME name!: string;
  @Omittable() @IsString() @MaxLength(500) description?: string;
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @SCOPE_LIST scopes!: string[];
  @Omittable()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  @REDIRECT_URIS
  redirectUris?: string[];
}

@JSONSchema({ example: { name: 'My dashboard (renamed)', isActive: true } })
export class UpdateOAuthClientDto {
  @Omittable() @IsString() @MinLength(1) @MaxLength(100) @NAME name?: string;
  @Omittable() @IsString() @MaxLength(500) description?: string;
  @Omittable() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @SCOPE_LIST scopes?: string[];
  @Omittable()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  @REDIRECT_URIS
  redirectUris?: string[];
  @Omittable() @IsBoolean() isActive?: boolean;
}
