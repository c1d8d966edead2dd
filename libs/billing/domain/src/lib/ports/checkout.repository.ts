/** A checkout the service started: which account it is for and which plan it buys. */
export interface CheckoutRecord {
  sessionId: string;
  userId: string;
  planId: string;
  createdAt: Date;
  expiresAt: Date;
}

export abstract class CheckoutRepository {
  abstract insert(record: CheckoutRecord): Promise<void>;
  abstract find(sessionId: string): Promise<CheckoutRecord | null>;
  abstract deleteAllOfOwner(userId: string): Promise<void>;
}
