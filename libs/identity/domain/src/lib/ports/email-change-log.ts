/** Remembers when each account asked to change its e-mail address, so the asking can be limited. */
export abstract class EmailChangeLog {
  abstract record(userId: string, at: Date): Promise<void>;
  /** The account's requests since `since`: how many, and when the oldest of them was made. */
  abstract since(userId: string, since: Date): Promise<{ count: number; oldest: Date | null }>;
}
