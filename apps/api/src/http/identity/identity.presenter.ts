import { OAuthClient, User } from '@lnk/identity/domain';

/** A user as the API shows it (spec 2.3). */
export function presentUser(user: User) {
  return {
    id: user.id,
    email: user.shownAddress.email,
    name: user.name,
    isVerified: user.shownAddress.isVerified,
    isActive: user.isActive,
    createdAt: user.createdAt.toISOString(),
  };
}

/** An OAuth client as the API shows it (spec 2.5); the secret only where it was just made. */
export function presentClient(client: OAuthClient, clientSecret?: string | null) {
  return {
    id: client.id,
    clientId: client.clientId,
    ...(clientSecret ? { clientSecret } : {}),
    name: client.name,
    description: client.description,
    scopes: client.scopes,
    redirectUris: client.redirectUris,
    isActive: client.isActive,
    createdAt: client.createdAt.toISOString(),
  };
}
