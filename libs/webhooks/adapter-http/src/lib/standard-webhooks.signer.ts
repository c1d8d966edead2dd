import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookSecretGenerator, WebhookSigner } from '@lnk/webhooks/domain';

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, as the `standardwebhooks` package computes it (receivers verify with it). */
export class StandardWebhooksSigner extends WebhookSigner {
  sign(secret: string, messageId: string, at: Date, body: string): string {
    return new Webhook(secret).sign(messageId, at, body);
  }
}

/** 32 random bytes (the Standard Webhooks spec asks for 24 to 64), base64, with the `whsec_` prefix. */
export class RandomWebhookSecretGenerator extends WebhookSecretGenerator {
  generate(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }
}
