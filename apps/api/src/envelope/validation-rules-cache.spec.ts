import { getMetadataStorage, IsInt, IsString, MaxLength, validate } from 'class-validator';
import { cacheValidationRules } from './validation-rules-cache';

const failing = async (value: object, groups?: string[]) => (await validate(value, groups ? { groups } : {})).map((e) => `${e.property}:${Object.keys(e.constraints ?? {}).join(',')}`).sort();

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

  // Defends: a rule registered after a class was first validated (a class loaded late) never applied.
  it('forgets what it kept when a rule is registered later', async () => {
    expect(await failing(child({ name: 'a very long name' }))).toEqual([]);
    MaxLength(4)(Base.prototype, 'name');
    expect(await failing(child({ name: 'a very long name' }))).toEqual(['name:maxLength']);
    class Late extends Child {
      @IsString() extra: unknown;
    }
    expect(await failing(Object.assign(new Late(), { name: 'n', count: 'x', code: 'abc', extra: 1 }))).toEqual(['count:isInt', 'extra:isString']);
  });
});
