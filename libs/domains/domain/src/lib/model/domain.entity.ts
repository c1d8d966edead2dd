import { DomainError } from '@lnk/shared/kernel';

export interface DomainProps {
  id: string;
  ownerId: string;
  name: string;
  isVerified: boolean;
  verifiedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export class Domain {
  constructor(private props: DomainProps) {}

  get id(): string {
    return this.props.id;
  }
  get ownerId(): string {
    return this.props.ownerId;
  }
  get name(): string {
    return this.props.name;
  }
  get isVerified(): boolean {
    return this.props.isVerified;
  }
  get verifiedAt(): Date | null {
    return this.props.verifiedAt;
  }
  get createdAt(): Date {
    return this.props.createdAt;
  }

  markVerified(now: Date): void {
    this.props = { ...this.props, isVerified: true, verifiedAt: now, updatedAt: now };
  }

  toProps(): DomainProps {
    return { ...this.props };
  }
}

/** DNS does not (yet) show the record the owner must configure; the message says what it shows. */
export class DomainNotVerifiedError extends DomainError {
  constructor(message: string) {
    super('DOMAIN_NOT_VERIFIED', message);
  }
}
