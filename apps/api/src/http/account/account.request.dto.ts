import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

export class ChangeEmailDto {
  @IsString() @MaxLength(320) email!: string;
}

export class ChangePasswordDto {
  @IsString() @MaxLength(1024) currentPassword!: string;
  @IsString() @MaxLength(1024) newPassword!: string;
}

export class SetTwoFactorDto {
  @IsBoolean() enable!: boolean;
  @IsOptional() @IsString() @MaxLength(64) code?: string;
}

export class VerifyEmailQueryDto {
  @IsString() @MaxLength(256) token!: string;
}
