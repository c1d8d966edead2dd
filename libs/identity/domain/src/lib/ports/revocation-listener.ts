/** Told whenever tokens stop being valid, so caches of accepted tokens can forget them at once. */
export abstract class RevocationListener {
  abstract tokensRevoked(): void;
}
