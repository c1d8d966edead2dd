import { boolean, described, id, integer, named, object, oneOfValues, string, strings } from '@lnk/shared/http';

/** What the dashboard holds in memory: a short-lived access token and the account it acts for. */
export const DashboardSessionSchema = named(
  'DashboardSession',
  object({
    accessToken: described(
      string,
      "A bearer token for the API, kept in the page's memory only; ask for a new one before `expiresIn` runs out",
    ),
    tokenType: oneOfValues('Bearer'),
    expiresIn: described(integer, 'Seconds the access token is valid'),
    scopes: strings,
    user: object({ id, email: string, name: string }),
  }),
);

export const SignedOutSchema = object({ signedOut: boolean });
