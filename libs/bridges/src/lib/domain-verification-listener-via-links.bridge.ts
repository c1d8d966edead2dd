import { DomainVerificationListener } from '@lnk/domains/domain';
import { ShortHostChanges } from '@lnk/links/domain';

/** A domain verified or no longer verified: the redirect's host cache forgets which domain its host names. */
export class DomainVerificationListenerViaLinks extends DomainVerificationListener {
  constructor(private readonly hosts: ShortHostChanges) {
    super();
  }

  verificationChanged(name: string): void {
    this.hosts.hostChanged(name);
  }
}
