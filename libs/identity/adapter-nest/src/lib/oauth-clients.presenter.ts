import type { OAuthClient } from '@lnk/identity/domain';
import type { Static } from '@lnk/shared/http';
import type { OAuthClientSchema, RegeneratedClientSecretSchema } from './oauth-clients.schemas';

/** An OAuth client as the API shows it (spec 2.5); the secret only where it was just made. */
export function presentClient(client: OAuthClient, clientSecret?: string | null): Static<typeof OAuthClientSchema> {
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

/** A new secret: shown this once. */
export function presentRegeneratedSecret(client: OAuthClient, clientSecret: string): Static<typeof RegeneratedClientSecretSchema> {
  return { id: client.id, clientId: client.clientId, clientSecret, name: client.name, isActive: client.isActive };
}
