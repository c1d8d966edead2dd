import { BcryptPasswordHasher } from './bcrypt-password.hasher';
import { NodeSecretGenerator } from './node-secret.generator';
import { Sha256SecretHasher } from './sha256-secret.hasher';

describe('BcryptPasswordHasher', () => {
  const hasher = new BcryptPasswordHasher(4);

  it('verifies the right password and rejects another', async () => {
    const hash = await hasher.hash('correct horse');
    expect(hash).toMatch(/^\$2[aby]\$04\$/);
    expect(hash).not.toContain('correct horse');
    await expect(hasher.verify('correct horse', hash)).resolves.toBe(true);
    await expect(hasher.verify('correct horsf', hash)).resolves.toBe(false);
  });
});

describe('Sha256SecretHasher', () => {
  const hasher = new Sha256SecretHasher();

  it('stores a hex digest and matches only the same secret', () => {
    const hash = hasher.hash('tkn_abc');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hasher.matches('tkn_abc', hash)).toBe(true);
    expect(hasher.matches('tkn_abd', hash)).toBe(false);
    expect(hasher.matches('tkn_abc', 'abcd')).toBe(false);
  });
});

describe('NodeSecretGenerator', () => {
  it('makes url-safe values of the requested entropy that do not repeat', () => {
    const generator = new NodeSecretGenerator();
    const values = Array.from({ length: 100 }, () => generator.generate(32));
    expect(new Set(values).size).toBe(100);
    for (const value of values) {
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });
});
