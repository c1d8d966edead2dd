import { randomInt } from 'node:crypto';
import { GENERATED_SLUG_LENGTH, SlugGenerator } from '@lnk/links/domain';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Slugs of base62 characters, each drawn uniformly from the CSPRNG. */
export class CryptoSlugGenerator extends SlugGenerator {
  generate(): string {
    let slug = '';
    for (let i = 0; i < GENERATED_SLUG_LENGTH; i++) slug += BASE62[randomInt(62)];
    return slug;
  }
}
