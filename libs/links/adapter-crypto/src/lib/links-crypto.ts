import { randomInt } from 'node:crypto';
import bcrypt from 'bcrypt';
import { GENERATED_SLUG_LENGTH, LinkPasswordHasher, SlugGenerator } from '@lnk/links/domain';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Slugs of base62 characters, each drawn uniformly from the CSPRNG. */
export class CryptoSlugGenerator extends SlugGenerator {
  generate(): string {
    let slug = '';
    for (let i = 0; i < GENERATED_SLUG_LENGTH; i++) slug += BASE62[randomInt(62)];
    return slug;
  }
}

/** bcrypt, async only, for link passwords. */
export class BcryptLinkPasswordHasher extends LinkPasswordHasher {
  constructor(private readonly cost: number) {
    super();
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  verify(password: string, hash: string): Promise<boolean> {
    return bcrypt.compare(password, hash);
  }
}
