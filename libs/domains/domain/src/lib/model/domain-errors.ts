import { DomainError, ValidationError } from '@lnk/shared/kernel';

/** Adding and verifying both refuse a name that another account has verified: it serves one account's links. */
export const takenElsewhere = () => ValidationError.field('name', 'another account has verified this domain');

/** A TLS proxy asked for a certificate for a host the service does not answer. */
export class NoCertificateError extends DomainError {
  constructor() {
    super('NOT_FOUND', 'This host is neither the service nor a verified custom domain: no certificate for it');
  }
}
