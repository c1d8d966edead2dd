/** Unguessable challenge values (CSPRNG, at least 128 bits), in characters a TXT record keeps as they are. */
export abstract class ChallengeGenerator {
  abstract next(): string;
}
