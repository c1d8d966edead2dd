/** Requests to move accounts to an address (`User.pendingEmail`) and the links mailed for them. */
export abstract class PendingEmailChanges {
  /**
   * Someone has just proven `email`: every other account's unconfirmed request for it is withdrawn and
   * its links stop working, so a request made before the owner arrived cannot take the address later.
   */
  abstract withdrawAll(email: string, exceptUserId: string | null, at: Date): Promise<void>;
}
