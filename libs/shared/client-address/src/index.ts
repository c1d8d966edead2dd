export * from './lib/client-address-key';
