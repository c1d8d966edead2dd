// The dashboard's sign-in on the server (a token-mediating backend): the authorization-code flow run for
// the SPA, the refresh token kept in an HttpOnly cookie, short-lived access tokens handed to the page.
export * from './lib/dashboard-session.module';
export * from './lib/dashboard-session.controller';
export * from './lib/dashboard-session.schemas';
export * from './lib/session-cookies';
