import { IsIn, IsString, MaxLength } from 'class-validator';
import { IgnoresUnknownFields, Omittable } from '../../envelope/validation.pipe';

const S = 4096;

/** Every parameter a token request may carry (RFC 6749, RFC 7636, plus `otp` for two-factor accounts). */
@IgnoresUnknownFields()
export class TokenRequestDto {
  @IsString() @MaxLength(64) grant_type!: string;
  @Omittable() @IsString() @MaxLength(256) client_id?: string;
  @Omittable() @IsString() @MaxLength(256) client_secret?: string;
  @Omittable() @IsString() @MaxLength(320) username?: string;
  @Omittable() @IsString() @MaxLength(1024) password?: string;
  @Omittable() @IsString() @MaxLength(1024) scope?: string;
  @Omittable() @IsString() @MaxLength(64) otp?: string;
  @Omittable() @IsString() @MaxLength(S) code?: string;
  @Omittable() @IsString() @MaxLength(S) redirect_uri?: string;
  @Omittable() @IsString() @MaxLength(256) code_verifier?: string;
  @Omittable() @IsString() @MaxLength(S) refresh_token?: string;
}

@IgnoresUnknownFields()
export class RevokeRequestDto {
  @IsString() @MaxLength(S) token!: string;
  @Omittable() @IsIn(['access_token', 'refresh_token']) token_type_hint?: string;
  @Omittable() @IsString() @MaxLength(256) client_id?: string;
  @Omittable() @IsString() @MaxLength(256) client_secret?: string;
}

@IgnoresUnknownFields()
export class IntrospectRequestDto {
  @IsString() @MaxLength(S) token!: string;
  @Omittable() @IsIn(['access_token', 'refresh_token']) token_type_hint?: string;
  @Omittable() @IsString() @MaxLength(256) client_id?: string;
  @Omittable() @IsString() @MaxLength(256) client_secret?: string;
}

export class IdpRequestDto {
  @IsString() @MaxLength(16384) token!: string;
  @IsString() @MaxLength(256) client_id!: string;
  /** The current one-time code (or a backup code), for accounts with two-factor sign-in on. */
  @Omittable() @IsString() @MaxLength(64) otp?: string;
}

@IgnoresUnknownFields()
export class AuthorizeQueryDto {
  @Omittable() @IsString() @MaxLength(64) response_type?: string;
  @Omittable() @IsString() @MaxLength(256) client_id?: string;
  @Omittable() @IsString() @MaxLength(S) redirect_uri?: string;
  @Omittable() @IsString() @MaxLength(1024) scope?: string;
  @Omittable() @IsString() @MaxLength(1024) state?: string;
  @Omittable() @IsString() @MaxLength(128) code_challenge?: string;
  @Omittable() @IsString() @MaxLength(16) code_challenge_method?: string;
}

/** What the authorization page posts back. */
@IgnoresUnknownFields()
export class AuthorizeDecisionDto {
  @IsString() @MaxLength(8192) request!: string;
  @IsString() @MaxLength(128) signature!: string;
  @IsIn(['approve', 'deny']) decision!: 'approve' | 'deny';
  @Omittable() @IsString() @MaxLength(320) email?: string;
  @Omittable() @IsString() @MaxLength(1024) password?: string;
  @Omittable() @IsString() @MaxLength(64) otp?: string;
}
