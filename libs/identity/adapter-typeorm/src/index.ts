export * from './lib/identity.persistence';
export * from './lib/typeorm-user.repository';
export * from './lib/typeorm-oauth-client.repository';
export * from './lib/typeorm-token.repositories';
export * from './lib/typeorm-account.repositories';
export * from './lib/typeorm-address-ownership.repositories';
export * from './lib/typeorm-operator-directory';
