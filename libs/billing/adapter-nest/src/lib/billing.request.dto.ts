import { IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsHttpUrl } from '@lnk/shared/http';

@JSONSchema({
  example: {
    planId: 'pro',
    successUrl: 'https://app.example.com/billing/done?session={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://app.example.com/billing',
  },
})
export class CheckoutRequestDto {
  @JSONSchema({ description: 'The id of a paid plan (GET /user/plans).' })
  @IsString()
  @MaxLength(40)
  planId!: string;
  @IsString() @MaxLength(2048) @IsHttpUrl() successUrl!: string;
  @IsString() @MaxLength(2048) @IsHttpUrl() cancelUrl!: string;
}

@JSONSchema({ example: { sessionId: 'cs_test_a1b2c3d4e5' } })
export class VerifyCheckoutRequestDto {
  @IsString() @MaxLength(255) sessionId!: string;
}
