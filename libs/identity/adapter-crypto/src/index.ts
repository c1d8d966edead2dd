export * from './lib/bcrypt-password.hasher';
export * from './lib/sha256-secret.hasher';
export * from './lib/node-secret.generator';
