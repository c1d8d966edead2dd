import { USAGE } from '../../openapi/response-schemas';
import { boolean, dateTime, either, id, named, nullable, object, oneOfValues, string, strings } from '../../openapi/schema';

/** The `data` of the account's answers (spec 4.3). */
export const UserSchema = named('User', object({ id, email: string, name: nullable(string), isVerified: boolean, isActive: boolean, createdAt: dateTime }));
export const AccountLimitsSchema = named('AccountLimits', object({ domains: USAGE, links: USAGE, tags: USAGE }));

export const ChangedEmailSchema = object({ id, email: string, isVerified: boolean, updatedAt: dateTime });
export const ChangedPasswordSchema = object({ id, updatedAt: dateTime });
export const TwoFactorChangeSchema = either(
  object({ qrCode: { ...string, pattern: '^data:image/png;base64,' }, secret: string, backupCodes: strings }),
  object({ isTwoFactorEnabled: oneOfValues(false) }),
);
export const TwoFactorConfirmedSchema = object({ isTwoFactorEnabled: oneOfValues(true) });
export const VerifiedEmailSchema = object({ id, email: string, isVerified: boolean });
