/**
 * Told once a change of an owner's links is committed (a link created, changed or deleted, its tags changed,
 * the account's links erased): every list answer of that owner may differ now. The links adapter reports
 * every write it makes, so a new write path reports through it without a use case having to remember.
 */
export abstract class LinkListChanges {
  abstract linksChanged(ownerId: string): void;
}
