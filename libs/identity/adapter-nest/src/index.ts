export * from './lib/identity.module';
export * from './lib/identity.ports';
export * from './lib/identity.settings';
export * from './lib/account.controller';
export * from './lib/oauth.controller';
export * from './lib/oauth-clients.controller';
export * from './lib/tokens.controller';
export * from './lib/account.presenter';
export * from './lib/oauth-clients.presenter';
export * from './lib/tokens.presenter';
export * from './lib/account.schemas';
export * from './lib/oauth.schemas';
export * from './lib/oauth-clients.schemas';
export * from './lib/tokens.schemas';
// The dashboard's sign-in on the server (a token-mediating backend): the authorization-code flow run for
// the SPA, the refresh token kept in an HttpOnly cookie, short-lived access tokens handed to the page.
export * from './lib/dashboard-session.controller';
export * from './lib/dashboard-session.schemas';
export * from './lib/session-cookies';
