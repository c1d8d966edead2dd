export * from './lib/node-dns.resolver';
