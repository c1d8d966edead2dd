export { parseIdpProviders } from './lib/idp-providers';
export type { IdpProvider } from './lib/idp-providers';
export { JoseIdTokenVerifier } from './lib/jose-id-token.verifier';
export type { JoseIdTokenVerifierOptions } from './lib/jose-id-token.verifier';
