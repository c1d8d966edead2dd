import { BcryptLinkPasswordHasher, CryptoSlugGenerator } from './links-crypto';

describe('CryptoSlugGenerator', () => {
  it('draws 7 base62 characters, spread over the whole alphabet', () => {
    const generator = new CryptoSlugGenerator();
    const slugs = Array.from({ length: 2000 }, () => generator.generate());
    for (const slug of slugs) expect(slug).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(new Set(slugs).size).toBe(2000);
    expect(new Set(slugs.join('')).size).toBe(62);
  });
});

describe('BcryptLinkPasswordHasher', () => {
  it('verifies the password it hashed and no other', async () => {
    const hasher = new BcryptLinkPasswordHasher(4);
    const hash = await hasher.hash('open sesame');
    await expect(hasher.verify('open sesame', hash)).resolves.toBe(true);
    await expect(hasher.verify('open sesamE', hash)).resolves.toBe(false);
  });
});
