export * from './lib/crypto-challenge.generator';
export * from './lib/node-dns.resolver';
