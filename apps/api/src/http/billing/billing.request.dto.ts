import { IsString, MaxLength, ValidateBy, ValidationOptions } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { parseUrl } from '@lnk/shared/kernel';

/** An absolute http(s) URL (Stripe's `{CHECKOUT_SESSION_ID}` placeholder allowed). */
function IsHttpUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isHttpUrl',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && ['http:', 'https:'].includes(parseUrl(value)?.protocol ?? '') && !!parseUrl(value)?.hostname,
        defaultMessage: () => 'must be an absolute http(s) URL',
      },
    },
    options,
  );
}

@JSONSchema({ example: { planId: 'pro', successUrl: 'https://app.example.com/billing/done?session={CHECKOUT_SESSION_ID}', cancelUrl: 'https://app.example.com/billing' } })
export class CheckoutRequestDto {
  @IsString() @MaxLength(40) planId!: string;
  @IsString() @MaxLength(2048) @IsHttpUrl() successUrl!: string;
  @IsString() @MaxLength(2048) @IsHttpUrl() cancelUrl!: string;
}

@JSONSchema({ example: { sessionId: 'cs_test_a1b2c3d4e5' } })
export class VerifyCheckoutRequestDto {
  @IsString() @MaxLength(255) sessionId!: string;
}
