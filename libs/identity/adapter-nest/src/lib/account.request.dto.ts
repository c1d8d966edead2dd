import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  checkNewName,
  checkNewPassword,
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  normalizeEmail,
} from '@lnk/identity/domain';
import { Checked, NOT_BLANK, Omittable, OmittableBody } from '@lnk/shared/http';

// `currentPassword` on sensitive actions: needed when the token's sign-in is older than ten minutes.

@JSONSchema({ example: { email: 'ada.lovelace@example.com', currentPassword: 'correct horse battery' } })
export class ChangeEmailDto {
  @IsString()
  @MaxLength(320)
  @Checked((value, field) => normalizeEmail(value, field), { format: 'email', maxLength: MAX_EMAIL_LENGTH })
  email!: string;
  @Omittable() @IsString() @MaxLength(1024) currentPassword?: string;
}

@JSONSchema({ example: { name: 'Ada Lovelace' } })
export class ChangeNameDto {
  @JSONSchema({ description: `Your display name: at most ${MAX_NAME_LENGTH} characters once trimmed, not blank.` })
  @IsString()
  @MaxLength(1024)
  @Checked((value, field) => checkNewName(value, field), { pattern: NOT_BLANK })
  name!: string;
}

@JSONSchema({ example: { currentPassword: 'correct horse battery', newPassword: 'a longer passphrase of mine' } })
export class ChangePasswordDto {
  @IsString() @MaxLength(1024) currentPassword!: string;
  @JSONSchema({
    description:
      `${MIN_PASSWORD_LENGTH} characters or more, at most ${MAX_PASSWORD_LENGTH} ` +
      'bytes in UTF-8 (what bcrypt reads), different from the current one.',
  })
  @IsString()
  @MaxLength(1024)
  @Checked((value, field) => checkNewPassword(value, field), { minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH })
  newPassword!: string;
}

@JSONSchema({ example: { enable: true, currentPassword: 'correct horse battery' } })
export class SetTwoFactorDto {
  @IsBoolean() enable!: boolean;
  @Omittable() @IsString() @MaxLength(64) code?: string;
  @Omittable() @IsString() @MaxLength(1024) currentPassword?: string;
}

@JSONSchema({ example: { code: '123456' } })
export class ConfirmTwoFactorDto {
  @IsString() @MaxLength(64) code!: string;
}

/** DELETE /user/me may come without a body (a fresh sign-in is enough) or with the password. */
@OmittableBody()
@JSONSchema({ example: { currentPassword: 'correct horse battery' } })
export class DeleteAccountDto {
  @Omittable() @IsString() @MaxLength(1024) currentPassword?: string;
}

export class VerifyEmailQueryDto {
  @JSONSchema({ description: 'The token of the link the verification e-mail carried.', example: 'ev_2b4f9c0e7d1a' })
  @IsString()
  @MaxLength(256)
  token!: string;
}

/** What the page of the verification link posts (form-encoded), or an API client (JSON). */
@JSONSchema({ example: { token: 'ev_2b4f9c0e7d1a' } })
export class VerifyEmailDto {
  @JSONSchema({ description: 'The token of the link the verification e-mail carried.' })
  @IsString()
  @MaxLength(256)
  token!: string;
}
