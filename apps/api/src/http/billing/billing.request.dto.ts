import { IsString, MaxLength, ValidateBy, ValidationOptions } from 'class-validator';

/** An absolute http(s) URL (Stripe's `{CHECKOUT_SESSION_ID}` placeholder allowed). */
function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol) && !!new URL(value).hostname,
        defaultMessage: () => 'must be an absolute http(s) URL',
      },
    },
    options,
  );
}

export class CheckoutRequestDto {
  @IsString() @MaxLength(40) planId!: string;
  @IsString() @MaxLength(2048) @IsHttpUrl() successUrl!: string;
  @IsString() @MaxLength(2048) @IsHttpUrl() cancelUrl!: string;
}

export class VerifyCheckoutRequestDto {
  @IsString() @MaxLength(255) sessionId!: string;
}
