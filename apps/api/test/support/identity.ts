import { SCOPES } from '@lnk/identity/domain';
import { CONTEXTS, type Contexts, type Identity } from '@lnk/composition';
import type { TestApp } from './test-app';

export interface TestClient {
  id: string;
  clientId: string;
  clientSecret: string;
}

export interface TestAccount {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  /** The client it signed in through. */
  client: TestClient;
}

let counter = 0;

export function identityOf(t: TestApp): Identity {
  return t.app.get<Contexts>(CONTEXTS).identity;
}

/**
 * A first-party client, as the operator CLI makes it: it belongs to the service; `requestedBy` (the
 * account it was made for, like the CLI's --owner) is only recorded.
 */
export async function createFirstPartyClient(
  t: TestApp,
  requestedBy?: string,
  options: { scopes?: string[]; redirectUris?: string[] } = {},
): Promise<TestClient> {
  const { client, clientSecret } = await identityOf(t).createOAuthClient.execute({
    requestedBy,
    name: 'First-party test client',
    scopes: options.scopes ?? [...SCOPES],
    redirectUris: options.redirectUris ?? [],
    isFirstParty: true,
  });
  if (clientSecret === null) throw new Error('a confidential client has a secret');
  return { id: client.id, clientId: client.clientId, clientSecret };
}

/** A public first-party client (browser or native app): no secret, PKCE for codes. */
export async function createPublicClient(t: TestApp, options: { redirectUris?: string[] } = {}): Promise<{ id: string; clientId: string }> {
  const { client } = await identityOf(t).createOAuthClient.execute({
    name: 'Public test client',
    redirectUris: options.redirectUris ?? [],
    isFirstParty: true,
    isPublic: true,
  });
  return { id: client.id, clientId: client.clientId };
}

/** A user with a password, signed in through the password grant over HTTP. */
export async function createAccount(
  t: TestApp,
  options: { email?: string; password?: string; client?: TestClient; scope?: string; verified?: boolean } = {},
): Promise<TestAccount> {
  const email = options.email ?? `user${++counter}-${Date.now()}@example.com`;
  const password = options.password ?? 'correct horse battery';
  const user = await identityOf(t).registerUser.execute({ email, password, name: 'Test User', verified: options.verified });
  const client = options.client ?? (await createFirstPartyClient(t, user.id));
  const res = await t.request('POST', '/oauth/token', {
    body: {
      grant_type: 'password',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      username: email,
      password,
      ...(options.scope ? { scope: options.scope } : {}),
    },
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { id: user.id, email, password, accessToken: res.body.data.access_token, refreshToken: res.body.data.refresh_token, client };
}

/**
 * A PAT with exactly these scopes, made over HTTP by an account holding every scope, with its sign-in (fresh for 10 minutes: no password
 * needed).
 */
export async function createPat(
  t: TestApp,
  account: TestAccount,
  scopes: readonly string[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; token: string }> {
  const res = await t.request('POST', '/user/tokens', { token: account.accessToken, body: { name: 'test', scopes, ...extra } });
  if (res.status !== 200) throw new Error(`PAT creation failed: ${res.status} ${res.text}`);
  return { id: res.body.data.id, token: res.body.data.token };
}
