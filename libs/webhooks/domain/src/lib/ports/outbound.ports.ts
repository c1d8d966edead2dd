/** Seals secrets that must be read back (the signing secret): authenticated encryption under a key of the service's. */
export abstract class WebhookSecretBox {
  abstract seal(plain: string): string;
  /** Null when the value does not open (another key, tampered with). */
  abstract open(sealed: string): string | null;
}

/** A new signing secret: `whsec_` + base64 of random bytes (Standard Webhooks). */
export abstract class WebhookSecretGenerator {
  abstract generate(): string;
}

/** Signs a delivery (Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`). */
export abstract class WebhookSigner {
  abstract sign(secret: string, messageId: string, at: Date, body: string): string;
}

/**
 * The one answer for every destination refused, at creation, at update and in a delivery's `lastError`:
 * the same whether the host does not resolve or resolves to a loopback, private, link-local or metadata
 * address, and naming neither the host's addresses nor how it resolved, so that it tells nothing of the
 * service's internal network or DNS.
 */
export const DESTINATION_REFUSED = 'url must resolve to public addresses only';

/**
 * Where a webhook may point: resolves the URL's host and refuses internal addresses (loopback, private,
 * link-local, metadata) and hosts that do not resolve. Answers only whether it is allowed (the reason is
 * never shown: see DESTINATION_REFUSED). The sender checks again at connect time.
 */
export abstract class DestinationGuard {
  abstract allows(url: string): Promise<boolean>;
}

export interface SendResult {
  /** The receiver's HTTP status; null when there was no answer (refused, timed out, address not allowed). */
  status: number | null;
  /**
   * What went wrong, shown to the owner as `lastError`: a fixed text per kind of failure, never a
   * network error's own message (it may hold addresses); a refused or unresolvable host is DESTINATION_REFUSED.
   */
  error: string | null;
}

/** Sends one signed POST. Never throws: every failure is a result. */
export abstract class WebhookSender {
  abstract send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
}

/** Which of these link ids are links of the owner's (the link filter names only the caller's own links). */
export abstract class WebhookLinks {
  abstract ownedOf(ownerId: string, linkIds: string[]): Promise<string[]>;
}

/**
 * Told of every change that may change who is subscribed to what (a webhook created, changed, turned off
 * or on, deleted): this instance's subscriber cache reads again before the change is answered, and the
 * other instances (and the redirect app) are told to.
 */
export abstract class WebhookChangeListener {
  abstract webhooksChanged(): Promise<void>;
}
