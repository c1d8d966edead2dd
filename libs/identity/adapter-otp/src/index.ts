export * from './lib/speakeasy-totp.service';
