import { SandboxCheckouts, SandboxSessionView } from '../ports/sandbox-checkouts.port';

/** A sandbox checkout session, for its payment page; null when there is none. */
export class GetSandboxCheckoutUseCase {
  constructor(private readonly sandbox: SandboxCheckouts) {}

  execute(sessionId: string): Promise<SandboxSessionView | null> {
    return this.sandbox.session(sessionId);
  }
}
