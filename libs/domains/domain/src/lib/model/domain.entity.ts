import { DomainError, EntityOf } from '@lnk/shared/kernel';

export interface DomainProps {
  id: string;
  ownerId: string;
  name: string;
  /** The random value this (account, domain) must publish in TXT `_lnk-challenge.<name>`; not a secret. */
  challenge: string;
  isVerified: boolean;
  verifiedAt: Date | null;
  /** When a re-check found the records gone and took the verification away; null while verified or never lost. */
  verificationLostAt: Date | null;
  /** Which expected record the re-check did not find. */
  verificationLostReason: string | null;
  /** Last DNS re-check of a verified domain (or its verification). */
  checkedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Where the owner publishes a domain's challenge. */
export const CHALLENGE_PREFIX = '_lnk-challenge';

export class Domain extends EntityOf<DomainProps>()(
  'id',
  'ownerId',
  'name',
  'challenge',
  'isVerified',
  'verifiedAt',
  'verificationLostAt',
  'verificationLostReason',
  'checkedAt',
  'createdAt',
) {
  /** A domain just added by its owner: not verified, never checked, waiting for its challenge in DNS. */
  static add(fields: { id: string; ownerId: string; name: string; challenge: string; now: Date }): Domain {
    const { now, ...rest } = fields;
    return new Domain({
      ...rest,
      isVerified: false,
      verifiedAt: null,
      verificationLostAt: null,
      verificationLostReason: null,
      checkedAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** The TXT record that proves this account controls the name. */
  get challengeName(): string {
    return `${CHALLENGE_PREFIX}.${this.props.name}`;
  }

  markVerified(now: Date): void {
    this.props = {
      ...this.props,
      isVerified: true,
      verifiedAt: now,
      verificationLostAt: null,
      verificationLostReason: null,
      checkedAt: now,
      updatedAt: now,
    };
  }

  /** A re-check found the records gone: the domain stops serving links, and says why. */
  loseVerification(reason: string, now: Date): void {
    this.props = {
      ...this.props,
      isVerified: false,
      verifiedAt: null,
      verificationLostAt: now,
      verificationLostReason: reason,
      checkedAt: now,
      updatedAt: now,
    };
  }

  /** A re-check that changed nothing (records in place, or DNS did not answer for sure). */
  markChecked(now: Date): void {
    this.props = { ...this.props, checkedAt: now };
  }

  toProps(): DomainProps {
    return { ...this.props };
  }
}

/** DNS does not (yet) show a record the owner must configure; the message names the record, never what DNS answered. */
export class DomainNotVerifiedError extends DomainError {
  constructor(message: string) {
    super('DOMAIN_NOT_VERIFIED', message);
  }
}
