import { boolean, dateTime, described, id, named, nullable, object, oneOfValues, string, strings, USAGE } from '@lnk/shared/http';

/** The `data` of the account's answers (spec 4.3). */
export const UserSchema = named(
  'User',
  object({ id, email: string, name: nullable(string), isVerified: boolean, isActive: boolean, createdAt: dateTime }),
);
export const AccountLimitsSchema = named('AccountLimits', object({ domains: USAGE, links: USAGE, tags: USAGE }));

export const ChangedEmailSchema = object({ id, email: string, isVerified: boolean, updatedAt: dateTime });
export const ChangedPasswordSchema = object({ id, updatedAt: dateTime });
export const ChangedNameSchema = object({ id, name: string, updatedAt: dateTime });
/** Turning two-factor sign-in on answers the enrolment (in force once a code is confirmed); turning it off, none. One shape either way. */
export const TwoFactorChangeSchema = named(
  'TwoFactorChange',
  object(
    {
      isTwoFactorEnabled: described(oneOfValues(false), 'false: off, or on only once POST /user/me/twofactor/confirm takes a code.'),
      qrCode: described({ ...string, pattern: '^data:image/png;base64,' }, 'When enabling: the secret as a PNG QR code (data URI).'),
      secret: described(string, 'When enabling: the TOTP secret (base32).'),
      backupCodes: described(strings, 'When enabling: single-use codes for when the app is lost.'),
    },
    ['qrCode', 'secret', 'backupCodes'],
  ),
);
export const TwoFactorConfirmedSchema = object({ isTwoFactorEnabled: oneOfValues(true) });
export const VerifiedEmailSchema = object({ id, email: string, isVerified: boolean });
