import { IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IgnoresUnknownFields, Omittable } from '@lnk/shared/http';

@IgnoresUnknownFields()
export class DashboardSignInQueryDto {
  @JSONSchema({
    description: 'A path of the dashboard to open once signed in (`/app/...`); anything else: `/app/`.',
    example: '/app/tokens',
  })
  @Omittable()
  @IsString()
  @MaxLength(2048)
  return_to?: string;
}

/** What the authorization server sends back (RFC 6749 section 4.1.2, RFC 9207); unknown parameters are ignored. */
@IgnoresUnknownFields()
export class DashboardCallbackQueryDto {
  @Omittable() @IsString() @MaxLength(4096) code?: string;
  @Omittable() @IsString() @MaxLength(1024) state?: string;
  @Omittable() @IsString() @MaxLength(64) error?: string;
  @Omittable() @IsString() @MaxLength(2048) iss?: string;
}
