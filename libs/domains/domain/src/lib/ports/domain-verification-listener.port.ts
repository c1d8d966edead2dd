/** Told when a name starts or stops serving an account's links, so caches of host -> domain forget it. */
export abstract class DomainVerificationListener {
  abstract verificationChanged(name: string): void;
}
