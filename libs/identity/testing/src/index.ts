export * from './lib/identity.fakes';
export * from './lib/identity.contract';
export * from './lib/login-throttle.contract';
export * from './lib/personal-access-tokens.contract';
