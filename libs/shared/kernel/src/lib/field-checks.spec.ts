import { checkEach } from './field-checks';
import { ValidationError } from './errors';

const fail = (name: string) => (): never => {
  throw ValidationError.field(name, `${name} is wrong`);
};

describe('checkEach', () => {
  it('returns every result in order when all checks pass', () => {
    expect(
      checkEach(
        () => 1,
        () => 'two',
      ),
    ).toEqual([1, 'two']);
  });

  it('names every failing field at once, not only the first (a caller would need a round per field)', () => {
    let thrown: unknown;
    try {
      checkEach(fail('url'), () => 'fine', fail('slug'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).errors).toEqual([
      { name: 'url', error: 'url is wrong' },
      { name: 'slug', error: 'slug is wrong' },
    ]);
  });

  it('lets an error that is not a validation error through as it is', () => {
    const boom = new Error('boom');
    expect(() =>
      checkEach(fail('url'), () => {
        throw boom;
      }),
    ).toThrow(boom);
  });
});
