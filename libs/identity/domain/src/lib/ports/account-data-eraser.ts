/** Work that may run only once an account's deletion has committed, such as a payment provider's cancellation. */
export type AfterAccountDeleted = () => Promise<void>;

/**
 * Erases what other contexts keep for a user (links, domains, tags, statistics, billing) inside the
 * account deletion's transaction. The app binds it to those contexts' use cases.
 */
export abstract class AccountDataEraser {
  /**
   * Answers what is left to do after the commit. That work reports its own failures and never throws:
   * the account is gone by then, whatever an outside service says.
   */
  abstract eraseAccountData(userId: string): Promise<AfterAccountDeleted[]>;
}
