/** Records that a personal access token was used (its lastUsedAt); the PAT repository is one. */
export abstract class PatUses {
  abstract touch(id: string, at: Date): Promise<void>;
}
