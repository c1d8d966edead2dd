import { PersonalAccessToken } from '../model/tokens';
import { isReleasedEmail, User } from '../model/user.entity';
import { Mailer } from '../ports/mailer';

/**
 * Mail to the account about its tokens. A PAT outlives the session that made it, so a session someone
 * else holds could leave one behind: the owner hears of every PAT made through the API and can revoke it.
 */
export class PersonalAccessTokenNotices {
  constructor(private readonly mailer: Mailer) {}

  async created(user: User, token: PersonalAccessToken, ip: string): Promise<void> {
    if (isReleasedEmail(user.email)) return;
    const p = token.props;
    await this.mailer.send({
      to: user.email,
      subject: 'A personal access token was created for your account',
      text:
        `A personal access token named ${JSON.stringify(p.name)} was created for your ` +
        `account at ${p.createdAt.toISOString()}, from the address ${ip}.\n` +
        `Scopes: ${p.scopes.join(' ')}\n` +
        `Expires: ${p.expiresAt ? p.expiresAt.toISOString() : 'never'}\n\n` +
        `If you did not create it, revoke it (DELETE /user/tokens/${p.id}) or all your personal access tokens at once ` +
        `(POST /user/tokens/revoke-all), then change your password.`,
    });
  }
}
