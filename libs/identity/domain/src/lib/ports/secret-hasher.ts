/**
 * Fast one-way hashing for high-entropy secrets the service generates (token values, client
 * secrets): the hash is the lookup key, and verification compares in constant time.
 */
export abstract class SecretHasher {
  abstract hash(secret: string): string;
  abstract matches(secret: string, hash: string): boolean;
}
