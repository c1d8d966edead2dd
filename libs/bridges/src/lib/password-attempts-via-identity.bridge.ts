import { PasswordAttempt, PasswordAttempts } from '@lnk/links/domain';
import { LoginThrottle } from '@lnk/identity/domain';

/**
 * Guesses at a link's password, for the throttle behind PasswordAttemptsViaIdentity: a run of wrong ones
 * from one address (an IPv6 /64) is refused for the window. Failures at a link from all addresses together
 * only slow its guesses down, each request by at most maxDelayMs (a wait of its own, not a lock on the
 * link): refusing them let anyone lock every visitor out (issue 27), as sign-in treats an account. Both
 * apps that answer short URLs use this rule; the public budget per address (RATE_LIMIT_PUBLIC) bounds
 * how many requests can be waiting.
 */
export const LINK_PASSWORD_THROTTLE = {
  rules: [
    { prefix: 'link-ip:', maxFailures: 10, freeFailures: 3, forgivenBySuccess: true },
    { prefix: 'link:', maxFailures: Infinity, freeFailures: 20, forgivenBySuccess: false },
  ],
  windowMs: 15 * 60_000,
  delayStepMs: 100,
  maxDelayMs: 1000,
};

/** Link password attempts counted by the same kind of throttle the sign-in uses. */
export class PasswordAttemptsViaIdentity extends PasswordAttempts {
  constructor(private readonly throttle: LoginThrottle) {
    super();
  }

  admit(keys: string[]): Promise<PasswordAttempt> {
    return this.throttle.admit(keys);
  }

  addressKey(address: string): string {
    return this.throttle.addressKey(address);
  }
}
