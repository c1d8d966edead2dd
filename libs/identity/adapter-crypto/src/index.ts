export * from './lib/bcrypt-password.hasher';
export * from './lib/sha256-secret.hasher';
export * from './lib/node-secret.generator';
export * from './lib/s256-pkce.verifier';
export * from './lib/aes-gcm-secret.box';
export * from './lib/in-memory-login.throttle';
