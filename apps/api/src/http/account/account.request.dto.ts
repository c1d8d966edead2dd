import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { Omittable } from '../../envelope/validation.pipe';

export class ChangeEmailDto {
  @IsString() @MaxLength(320) email!: string;
}

export class ChangePasswordDto {
  @IsString() @MaxLength(1024) currentPassword!: string;
  @IsString() @MaxLength(1024) newPassword!: string;
}

export class SetTwoFactorDto {
  @IsBoolean() enable!: boolean;
  @Omittable() @IsString() @MaxLength(64) code?: string;
}

export class VerifyEmailQueryDto {
  @IsString() @MaxLength(256) token!: string;
}
