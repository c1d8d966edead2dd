import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { Omittable, OmittableBody } from '../../envelope/validation.pipe';

// `currentPassword` on sensitive actions: needed when the token's sign-in is older than ten minutes.

export class ChangeEmailDto {
  @IsString() @MaxLength(320) email!: string;
  @Omittable() @IsString() @MaxLength(1024) currentPassword?: string;
}

export class ChangePasswordDto {
  @IsString() @MaxLength(1024) currentPassword!: string;
  @IsString() @MaxLength(1024) newPassword!: string;
}

export class SetTwoFactorDto {
  @IsBoolean() enable!: boolean;
  @Omittable() @IsString() @MaxLength(64) code?: string;
  @Omittable() @IsString() @MaxLength(1024) currentPassword?: string;
}

export class ConfirmTwoFactorDto {
  @IsString() @MaxLength(64) code!: string;
}

/** DELETE /user/me may come without a body (a fresh sign-in is enough) or with the password. */
@OmittableBody()
export class DeleteAccountDto {
  @Omittable() @IsString() @MaxLength(1024) currentPassword?: string;
}

export class VerifyEmailQueryDto {
  @IsString() @MaxLength(256) token!: string;
}
