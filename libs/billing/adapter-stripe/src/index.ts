export * from './lib/stripe-payment.gateway';
