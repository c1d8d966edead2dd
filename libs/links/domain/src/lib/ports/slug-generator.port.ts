/** Random slugs: GENERATED_SLUG_LENGTH characters of base62 from a CSPRNG. */
export abstract class SlugGenerator {
  abstract generate(): string;
}
