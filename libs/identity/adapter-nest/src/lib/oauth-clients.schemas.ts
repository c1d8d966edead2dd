import { boolean, dateTime, id, named, nullable, object, string, strings } from '@lnk/shared/http';

export const OAuthClientSchema = named(
  'OAuthClient',
  object(
    {
      id,
      clientId: string,
      clientSecret: string,
      name: string,
      description: nullable(string),
      scopes: strings,
      redirectUris: strings,
      isActive: boolean,
      createdAt: dateTime,
    },
    ['clientSecret'],
  ),
);
export const RegeneratedClientSecretSchema = object({ id, clientId: string, clientSecret: string, name: string, isActive: boolean });
