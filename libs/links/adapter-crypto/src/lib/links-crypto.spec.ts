import { CryptoSlugGenerator } from './links-crypto';

describe('CryptoSlugGenerator', () => {
  it('draws 7 base62 characters, spread over the whole alphabet', () => {
    const generator = new CryptoSlugGenerator();
    const slugs = Array.from({ length: 2000 }, () => generator.generate());
    for (const slug of slugs) expect(slug).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(new Set(slugs).size).toBe(2000);
    expect(new Set(slugs.join('')).size).toBe(62);
  });
});
