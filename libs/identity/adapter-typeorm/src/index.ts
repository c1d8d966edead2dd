export * from './lib/identity.persistence';
export * from './lib/typeorm-user.repository';
export * from './lib/typeorm-oauth-client.repository';
