/**
 * Told whenever an account's stored row changes or goes (its address, name, password, verification,
 * two-factor state, deletion), once the change is committed, so caches of accounts can forget it at once.
 */
export abstract class AccountChanges {
  abstract accountChanged(userId: string): void;
}
