import { Body, Controller, Ip, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ChangeEmailUseCase,
  ChangeNameUseCase,
  ChangePasswordUseCase,
  ConfirmTwoFactorUseCase,
  DeleteAccountUseCase,
  GetCurrentUserUseCase,
  type Principal,
  SetTwoFactorUseCase,
  type User,
  VerifyEmailUseCase,
  ViewAccountLimitsUseCase,
  ViewEmailVerificationUseCase,
} from '@lnk/identity/domain';
import { ValidationError } from '@lnk/shared/kernel';
import {
  AcceptsForm,
  CurrentPrincipal,
  DeletedSchema,
  ok,
  pageHeaders,
  prefersHtml,
  Public,
  Route,
  type SerializedOk,
  serializedOk,
} from '@lnk/shared/http';
import {
  AccountLimitsSchema,
  ChangedEmailSchema,
  ChangedNameSchema,
  ChangedPasswordSchema,
  TwoFactorChangeSchema,
  TwoFactorConfirmedSchema,
  UserSchema,
  VerifiedEmailSchema,
} from './account.schemas';
import { presentUser } from './account.presenter';
import { emailConfirmationPage, emailNotVerifiedPage, emailVerifiedPage } from './verify-email.pages';
import {
  ChangeEmailDto,
  ChangeNameDto,
  ChangePasswordDto,
  ConfirmTwoFactorDto,
  DeleteAccountDto,
  SetTwoFactorDto,
  VerifyEmailDto,
  VerifyEmailQueryDto,
} from './account.request.dto';

/** The signed-in user's own account (spec 4.3). */
@Controller('user/me')
export class AccountController {
  constructor(
    private readonly currentUser: GetCurrentUserUseCase,
    private readonly emailChange: ChangeEmailUseCase,
    private readonly passwordChange: ChangePasswordUseCase,
    private readonly twoFactorChange: SetTwoFactorUseCase,
    private readonly twoFactorConfirmation: ConfirmTwoFactorUseCase,
    private readonly accountLimits: ViewAccountLimitsUseCase,
    private readonly accountDeletion: DeleteAccountUseCase,
    private readonly nameChange: ChangeNameUseCase,
  ) {}

  @Route('GET', '', {
    operationId: 'getAccount',
    scope: 'user:read',
    answers: UserSchema,
    serialized: true,
    etag: true,
    summary: 'Your account',
    description: 'The signed-in user: e-mail, name, verification and two-factor state.',
  })
  async me(@CurrentPrincipal() principal: Principal) {
    const user = await this.currentUser.shared(principal);
    // The cached account (frozen, shared; a new one once it changed): presented and serialised once while cached.
    const presented = this.presentedUsers.get(user);
    if (presented) return presented;
    const serialized = serializedOk(ok(presentUser(user)));
    this.presentedUsers.set(user, serialized);
    return serialized;
  }

  /** The JSON of GET /user/me for the shared accounts of the current-user cache: gone with them. */
  private readonly presentedUsers = new WeakMap<User, SerializedOk<ReturnType<typeof presentUser>>>();

  @Route('PUT', 'email', {
    operationId: 'changeEmail',
    scope: 'user:write',
    answers: ChangedEmailSchema,
    reauthentication: true,
    summary: 'Change your e-mail address',
    description:
      "Stores the new address at once: the account's address and sign-in name from then on, unverified until the link " +
      'mailed to it is confirmed; the old address is told. An address another account uses is refused (VALIDATION_ERROR on ' +
      'email). At most 5 requests an hour. A sign-in older than ten minutes needs currentPassword.',
  })
  async changeEmail(@CurrentPrincipal() principal: Principal, @Body() body: ChangeEmailDto, @Ip() ip: string) {
    const user = await this.emailChange.execute(principal, body.email, { currentPassword: body.currentPassword, ip });
    return ok(
      { id: user.id, email: user.email, isVerified: user.isVerified, updatedAt: user.updatedAt.toISOString() },
      'E-mail address changed: sign in with it from now on, and follow the link mailed to it to confirm it',
    );
  }

  @Route('PUT', 'name', {
    operationId: 'changeName',
    scope: 'user:write',
    answers: ChangedNameSchema,
    summary: 'Change your name',
    description: 'Your display name, trimmed: not blank, at most as long as at sign-up.',
  })
  async changeName(@CurrentPrincipal() principal: Principal, @Body() body: ChangeNameDto) {
    const user = await this.nameChange.execute(principal, body.name);
    return ok({ id: user.id, name: user.name, updatedAt: user.updatedAt.toISOString() }, 'Name changed');
  }

  @Route('PUT', 'password', {
    operationId: 'changePassword',
    scope: 'user:write',
    answers: ChangedPasswordSchema,
    summary: 'Change your password',
    description: 'Needs the current password; signs out your other sessions and revokes your personal access tokens.',
  })
  async changePassword(@CurrentPrincipal() principal: Principal, @Body() body: ChangePasswordDto, @Ip() ip: string) {
    const user = await this.passwordChange.execute(principal, body.currentPassword, body.newPassword, ip);
    return ok(
      { id: user.id, updatedAt: user.updatedAt.toISOString() },
      'Password changed; your other sessions were signed out and your personal access tokens were revoked',
    );
  }

  @Route('POST', 'enable-twofactor', {
    operationId: 'setTwoFactor',
    scope: 'user:write',
    answers: TwoFactorChangeSchema,
    reauthentication: true,
    summary: 'Turn two-factor sign-in on or off',
    description:
      'enable: true answers a TOTP secret, its QR code and backup codes, and takes ' +
      'effect once a code is confirmed; enable: false turns it off.',
  })
  async setTwoFactor(@CurrentPrincipal() principal: Principal, @Body() body: SetTwoFactorDto, @Ip() ip: string) {
    const change = await this.twoFactorChange.execute(principal, {
      enable: body.enable,
      code: body.code,
      currentPassword: body.currentPassword,
      ip,
    });
    if (!change.enabled) return ok({ isTwoFactorEnabled: false }, 'Two-factor sign-in is off');
    return ok(
      { isTwoFactorEnabled: false, qrCode: change.qrCode, secret: change.secret, backupCodes: change.backupCodes },
      'Add the secret to your authenticator app, then send a code from it to POST ' +
        '/user/me/twofactor/confirm: two-factor sign-in is on from then. Keep the backup codes safe',
    );
  }

  @Route('POST', 'twofactor/confirm', {
    operationId: 'confirmTwoFactor',
    scope: 'user:write',
    answers: TwoFactorConfirmedSchema,
    summary: 'Confirm two-factor sign-in',
    description: 'A code from the authenticator app turns two-factor sign-in on.',
  })
  async confirmTwoFactor(@CurrentPrincipal() principal: Principal, @Body() body: ConfirmTwoFactorDto, @Ip() ip: string) {
    await this.twoFactorConfirmation.execute(principal, { code: body.code, ip });
    return ok({ isTwoFactorEnabled: true }, 'Two-factor sign-in is on');
  }

  @Route('GET', 'limits', {
    operationId: 'getAccountLimits',
    scope: 'user:read',
    answers: AccountLimitsSchema,
    summary: "Your plan's limits and usage",
    description: 'How many links, domains and tags your plan allows and how many you have.',
  })
  async limits(@CurrentPrincipal() principal: Principal) {
    return ok(await this.accountLimits.execute(principal));
  }

  @Route('DELETE', '', {
    operationId: 'deleteAccount',
    scope: 'user:write',
    answers: DeletedSchema,
    reauthentication: true,
    summary: 'Delete your account',
    description: 'Deletes the account and what it owns. The body may be left out after a fresh sign-in; else it carries currentPassword.',
  })
  async deleteAccount(@CurrentPrincipal() principal: Principal, @Body() body: DeleteAccountDto, @Ip() ip: string) {
    const deletedAt = await this.accountDeletion.execute(principal, { currentPassword: body.currentPassword, ip });
    return ok({ deletedAt: deletedAt.toISOString() }, 'Account deleted');
  }
}

/** The link an e-mail verification mails: the page of GET /auth/verify-email. */
export function emailVerificationLink(publicBaseUrl: string): (token: string) => string {
  return (token) => `${publicBaseUrl}/auth/verify-email?token=${encodeURIComponent(token)}`;
}

/** The link mailed to an address, and the page it opens. */
@Controller('auth')
@Public()
export class EmailVerificationController {
  constructor(
    private readonly viewEmailVerification: ViewEmailVerificationUseCase,
    private readonly verifyEmail: VerifyEmailUseCase,
  ) {}

  /**
   * Opening the link changes nothing, whoever fetches it (a mail scanner's HEAD or GET): a person's
   * browser (Accept ranks text/html first) gets a page whose button confirms, an API client the account
   * the link would confirm; a bad link the "not valid" page or the VALIDATION_ERROR envelope.
   */
  @Route('GET', 'verify-email', {
    operationId: 'getEmailVerification',
    answers: VerifiedEmailSchema,
    page: true,
    errors: { 400: 'html or json' },
    summary: 'Open an e-mail verification link',
    description:
      'The link of the verification e-mail. It changes nothing: a browser gets a page whose button confirms the address ' +
      '(POST /auth/verify-email), an API client the account the link would confirm.',
  })
  async view(@Query() query: VerifyEmailQueryDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await answerVerification(request, reply, {
      use: () => this.viewEmailVerification.execute(query.token),
      page: (user) => emailConfirmationPage(user.email, query.token),
      message: 'This link confirms the address when its token is posted to POST /auth/verify-email',
    });
  }

  /** What the page's button posts (form-encoded), or an API client (JSON): the token, used once. */
  @Route('POST', 'verify-email', {
    operationId: 'verifyEmail',
    answers: VerifiedEmailSchema,
    page: true,
    errors: { 400: 'html or json' },
    summary: 'Confirm an e-mail address',
    description:
      'Confirms the address with the token of the link mailed to it: what the page that link opens posts. ' +
      'A browser gets a page, an API client the envelope.',
  })
  @AcceptsForm()
  async verify(@Body() body: VerifyEmailDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await answerVerification(request, reply, {
      use: () => this.verifyEmail.execute(body.token),
      page: (user) => emailVerifiedPage(user.email),
      message: 'E-mail address confirmed',
    });
  }
}

/** The envelope of VerifiedEmailSchema, sent through the reply the page answers also use. */
/**
 * Answers the use of a verification link's token: a browser (it prefers HTML) gets a page, `page(user)`, or
 * the page that says the link is not valid when the token is refused; an API client the account, with `message`.
 */
async function answerVerification(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: { use: () => Promise<User>; page: (user: User) => string; message: string },
): Promise<void> {
  const page = prefersHtml(request.headers.accept);
  let user;
  try {
    user = await answer.use();
  } catch (error) {
    if (page && error instanceof ValidationError) return void reply.code(400).headers(pageHeaders()).send(emailNotVerifiedPage());
    throw error;
  }
  if (page) return void reply.code(200).headers(pageHeaders()).send(answer.page(user));
  sendVerifiedEmail(reply, user, answer.message);
}

function sendVerifiedEmail(reply: FastifyReply, user: User, message: string): void {
  void reply
    .code(200)
    .type('application/json; charset=utf-8')
    .send({ status: 200, code: 'OK', message, data: { id: user.id, email: user.email, isVerified: user.isVerified } });
}
