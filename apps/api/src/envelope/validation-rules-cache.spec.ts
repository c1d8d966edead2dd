import { getMetadataStorage, IsInt, IsString, MaxLength, validate } from 'class-validator';
import { cacheValidationRules } from './validation-rules-cache';

const failing = async (value: object, groups?: string[]) =>
  (await validate(value, groups ? { groups } : {})).map((e) => `${e.property}:${Object.keys(e.constraints ?? {}).join(',')}`).sort();

describe('cacheValidationRules', () => {
  beforeAll(() => cacheValidationRules());

  class Base {
    @IsString() name: unknown;
  }
  class Child extends Base {
    @IsInt() count: unknown;
    @MaxLength(3, { groups: ['short'] }) code: unknown;
  }
  const child = (over: Partial<Child> = {}) => Object.assign(new Child(), { name: 'n', count: 1, code: 'abc', ...over });

  it('answers each class its own and inherited rules once found, the same list every time', async () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Child, '', false, false, undefined);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, undefined)).toBe(first);
    expect(first.map((rule) => rule.propertyName).sort()).toEqual(['code', 'count', 'name']);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    // Defends: an inherited rule dropped, or one class's rules answered for another.
    expect(await failing(child({ name: 5, count: 'x' }))).toEqual(['count:isInt', 'name:isString']);
    expect(await failing(Object.assign(new Base(), { name: 5 }))).toEqual(['name:isString']);
  });

  it('passes a validation with groups to class-validator as it is', async () => {
    const bad = child({ count: 'x', code: 'long code' });
    expect(await failing(bad)).toEqual(['code:maxLength', 'count:isInt']);
    expect(await failing(bad, ['short'])).toEqual(['code:maxLength']);
    // No rule of the group: class-validator's own answer for an object it has no rule for.
    expect(await failing(bad, ['other'])).toEqual(['undefined:unknownValue']);
  });

  // The patch replaces two methods of class-validator's metadata storage, which validate() is known to
  // call, as this version does (ValidationExecutor.execute). An upgrade fails here until the patch is
  // checked against it again, or taken out (docs/adr/2026-11-27-class-validator-rules-cache.md).
  it('is written against class-validator 0.15: an upgrade of it fails here', () => {
    expect((require('class-validator/package.json') as { version: string }).version).toMatch(/^0\.15\./);
  });

  // Defends: a class-validator that no longer asks the storage for a class's rules, leaving the cache dead.
  it("sits where validate() looks up a class's rules", async () => {
    const storage = getMetadataStorage();
    const lookups = jest.spyOn(storage, 'getTargetValidationMetadatas');
    const groupings = jest.spyOn(storage, 'groupByPropertyName');
    try {
      await failing(child());
      expect(lookups).toHaveBeenCalledWith(Child, undefined, false, false, undefined);
      expect(groupings).toHaveBeenCalledWith(lookups.mock.results[0].value);
    } finally {
      lookups.mockRestore();
      groupings.mockRestore();
    }
  });

  // Defends: a rule registered after a class was first validated (a class loaded late) never applied.
  it('forgets what it kept when a rule is registered later', async () => {
    expect(await failing(child({ name: 'a very long name' }))).toEqual([]);
    MaxLength(4)(Base.prototype, 'name');
    expect(await failing(child({ name: 'a very long name' }))).toEqual(['name:maxLength']);
    class Late extends Child {
      @IsString() extra: unknown;
    }
    expect(await failing(Object.assign(new Late(), { name: 'n', count: 'x', code: 'abc', extra: 1 }))).toEqual([
      'count:isInt',
      'extra:isString',
    ]);
  });
});
