/**
 * Resource ids: 24 lowercase hex characters, time-ordered like a MongoDB ObjectId
 * (4 bytes of seconds, 5 random bytes fixed per generator, a 3-byte counter), made by the
 * application so the database needs no extension and ids never reveal a row count.
 */
export abstract class IdGenerator {
  abstract next(): string;
}

const ID_PATTERN = /^[0-9a-f]{24}$/;

export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

function hex(value: number, bytes: number): string {
  return value.toString(16).padStart(bytes * 2, '0');
}

export class ObjectIdGenerator extends IdGenerator {
  private readonly processPart: string;
  private counter: number;

  constructor(private readonly now: () => number = Date.now) {
    super();
    // Web Crypto is a global in Node 20, so the kernel needs no I/O import for randomness.
    const random = globalThis.crypto.getRandomValues(new Uint8Array(8));
    this.processPart = Array.from(random.subarray(0, 5), (b) => hex(b, 1)).join('');
    this.counter = ((random[5] << 16) | (random[6] << 8) | random[7]) & 0xffffff;
  }

  next(): string {
    this.counter = (this.counter + 1) & 0xffffff;
    const seconds = Math.floor(this.now() / 1000) >>> 0;
    return hex(seconds, 4) + this.processPart + hex(this.counter, 3);
  }
}
