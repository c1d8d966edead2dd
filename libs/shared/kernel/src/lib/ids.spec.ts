import { isId, ObjectIdGenerator } from './ids';

describe('ObjectIdGenerator', () => {
  it('makes 24-character lowercase hex ids', () => {
    const id = new ObjectIdGenerator().next();
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(isId(id)).toBe(true);
  });

  it('orders ids by creation time and never repeats within a generator', () => {
    let now = 1_700_000_000_000;
    const ids = new ObjectIdGenerator(() => now);
    const first = ids.next();
    const sameSecond = Array.from({ length: 1000 }, () => ids.next());
    now += 1000;
    const later = ids.next();
    expect(new Set([first, ...sameSecond, later]).size).toBe(1002);
    expect(later > first).toBe(true);
    expect(first.slice(0, 8)).toBe((1_700_000_000).toString(16));
  });

  it('gives two generators different random parts', () => {
    expect(new ObjectIdGenerator().next().slice(8, 18)).not.toBe(new ObjectIdGenerator().next().slice(8, 18));
  });

  it('rejects values that are not ids', () => {
    for (const value of ['', '123', 'ABCDEFABCDEFABCDEFABCDEF', 42, null, '0'.repeat(25)]) {
      expect(isId(value)).toBe(false);
    }
  });
});
