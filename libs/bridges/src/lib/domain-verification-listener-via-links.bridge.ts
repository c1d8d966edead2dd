import { DomainVerificationListener } from '@lnk/domains/domain';
import { ResolveRedirectUseCase } from '@lnk/links/domain';

/** A domain verified or no longer verified: the redirect cache forgets which domain its host names. */
export class DomainVerificationListenerViaLinks extends DomainVerificationListener {
  constructor(private readonly redirects: ResolveRedirectUseCase) {
    super();
  }

  verificationChanged(name: string): void {
    this.redirects.forgetHost(name);
  }
}
