import { ArgumentMetadata, Injectable, ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
import { FieldError, ValidationError } from '@lnk/shared/kernel';

/** class-validator's tree of errors as one `{name, error}` per failing field, nested names dotted. */
export function toFieldErrors(errors: ClassValidatorError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const name = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ name, error: message }));
    const children = error.children?.length ? toFieldErrors(error.children, name) : [];
    // One entry per field: its first message is enough to act on.
    return [...own.slice(0, 1), ...children];
  });
}

/**
 * The global pipe: unknown fields are refused, types are strict (no implicit conversion), and every
 * failure becomes a VALIDATION_ERROR naming its fields.
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ValidationError(toFieldErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const expectsObject = metadata.metatype && this.toValidate(metadata) && (metadata.type === 'body' || metadata.type === 'query');
    if (expectsObject && (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value))) {
      if (metadata.type === 'query' && (value === undefined || value === null)) return super.transform({}, metadata);
      throw ValidationError.field('body', 'the request body must be a JSON object');
    }
    return super.transform(value, metadata);
  }
}
