import { PasswordHasher } from '@lnk/shared/kernel';
import { PasswordAttempts } from '../ports/password-attempts.port';

/**
 * Checks the password of a protected link. Guesses are counted per link and address (an IPv6 address
 * as its /64), so one visitor's run of wrong passwords is refused, and per link across all addresses,
 * so guessing from many addresses is slowed down (never refused: that would lock every visitor out).
 */
export class CheckLinkPasswordUseCase {
  constructor(
    private readonly passwords: PasswordHasher,
    private readonly attempts: PasswordAttempts,
  ) {}

  async execute(target: { id: string; passwordHash: string | null }, password: string | undefined, ip: string): Promise<boolean> {
    if (!target.passwordHash) return true;
    const attempt = await this.attempts.admit(linkPasswordKeys(target.id, this.attempts.addressKey(ip)));
    const ok = typeof password === 'string' && password.length <= 1024 && (await this.passwords.verify(password, target.passwordHash));
    if (ok) attempt.succeeded();
    return ok;
  }
}

/**
 * The keys a guess at a link's password counts against: the link, and the link from one address (its key, `PasswordAttempts.addressKey`).
 */
export function linkPasswordKeys(linkId: string, addressKey: string): string[] {
  return [`link:${linkId}`, `link-ip:${linkId}|${addressKey}`];
}
