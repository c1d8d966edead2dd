import { IsBoolean, IsInt, IsString, MaxLength } from 'class-validator';
import { ValidationError } from '@lnk/shared/kernel';
import {
  Checked,
  checkedItem,
  fieldCheckErrors,
  HTTP_URL_PATTERN,
  IgnoresUnknownFields,
  IsHttpUrl,
  Nullable,
  Omittable,
  requestSchema,
} from '@lnk/shared/http';
import { ApiValidationPipe } from './validation.pipe';

// A domain rule as a model function is written: it throws the domain's ValidationError naming the field.
const checkCode = (value: unknown) => {
  if (!/^[a-z]{3}$/.test(String(value))) throw ValidationError.field('code', 'code must be three small letters');
};

class ParentDto {
  @IsString() @MaxLength(10) @Checked(checkCode, { pattern: '^[a-z]{3}$' }) code!: string;
}

class ChildDto extends ParentDto {
  @Omittable() @IsBoolean() on?: boolean;
  @Nullable() @IsInt() count?: number | null;
  @Omittable() @IsString() @IsHttpUrl() home?: string;
}

@IgnoresUnknownFields()
class LenientDto {
  @IsString() @Checked(checkCode, { pattern: '^[a-z]{3}$' }) code!: string;
  @Omittable() @IsBoolean() on?: boolean;
}

const asBody = (metatype: object) => ({ type: 'body' as const, metatype: metatype as never, data: undefined });
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).errors.map((e) => e.name).sort();
};

describe('field checks: the domain rules of the fields a refused DTO let through', () => {
  const pipe = new ApiValidationPipe();

  // Defends issue 27: a wrong type on one field hid the domain's verdict on another.
  it('adds the domain errors of the fields that passed the DTO, inherited checks included', async () => {
    expect(await refusal(pipe.transform({ code: 'TOOLONG', on: 'yes' }, asBody(ChildDto)))).toEqual(['code', 'on']);
    expect(await refusal(pipe.transform({ code: 'TOOLONG', on: 'yes', unknown: 1 }, asBody(LenientDto)))).toEqual(['code', 'on']);
  });

  it('does not check a field the DTO refused itself, nor one left out or null', async () => {
    const errors = await pipe.transform({ code: 42, on: 'yes' }, asBody(ChildDto)).then(
      () => [],
      (e: ValidationError) => e.errors,
    );
    expect([...errors].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'code', error: 'code must be a string' },
      { name: 'on', error: 'on must be true or false' },
    ]);
    expect(fieldCheckErrors(ChildDto, { on: 'yes' }, new Set(['on']))).toEqual([]);
    expect(fieldCheckErrors(ChildDto, { code: null }, new Set())).toEqual([]);
  });

  // The use case runs the same rules on what the DTO accepts: the pipe adds nothing to an accepted body.
  it('leaves a body the DTO accepts to the use case', async () => {
    await expect(pipe.transform({ code: 'TOOLONG' }, asBody(ChildDto))).resolves.toMatchObject({ code: 'TOOLONG' });
  });

  it('checks a bulk item as the pipe checks a body', async () => {
    expect(await checkedItem(ChildDto, { code: 'TOOLONG', count: 'x' })).toEqual({
      errors: [
        { name: 'count', error: 'count must be a whole number' },
        { name: 'code', error: 'code must be three small letters' },
      ],
    });
  });
});

describe('requestSchema: what the document says of a request DTO', () => {
  it('states the checks, nullable fields and closed objects the pipe enforces', () => {
    expect(requestSchema(ChildDto)).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['code'],
      properties: {
        code: { type: 'string', maxLength: 10, pattern: '^[a-z]{3}$' },
        on: { type: 'boolean' },
        count: { type: 'integer', nullable: true },
        home: { type: 'string', pattern: HTTP_URL_PATTERN },
      },
    });
  });

  // RFC 6749 makes an OAuth endpoint ignore parameters it does not know: its schema must not close the object.
  it('leaves an IgnoresUnknownFields DTO open', () => {
    expect(requestSchema(LenientDto).additionalProperties).toBeUndefined();
  });
});
