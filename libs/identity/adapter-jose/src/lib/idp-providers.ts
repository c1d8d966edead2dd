/** One OpenID Connect provider whose ID tokens are accepted for sign-in. */
export interface IdpProvider {
  issuer: string;
  jwksUri: string;
  audience: string | string[];
}

const VARIABLE = 'IDP_PROVIDERS';

/**
 * Parses and checks the IDP_PROVIDERS JSON once at start-up, so a bad configuration stops the process
 * with a message naming the variable instead of failing every sign-in later. Unset or blank: no providers.
 */
export function parseIdpProviders(json: string | undefined): IdpProvider[] {
  if (json === undefined || json.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(`${VARIABLE} must be a JSON array of {issuer, jwksUri, audience}: it is not valid JSON`);
  }
  if (!Array.isArray(value)) throw new Error(`${VARIABLE} must be a JSON array of {issuer, jwksUri, audience}`);
  const providers = value.map((entry, index) => toProvider(entry, `${VARIABLE}[${index}]`));
  const seen = new Set<string>();
  for (const [index, { issuer }] of providers.entries()) {
    // The issuer picks the provider for a token, so two entries with one issuer would be ambiguous.
    if (seen.has(issuer)) throw new Error(`${VARIABLE}[${index}].issuer repeats the issuer ${JSON.stringify(issuer)}`);
    seen.add(issuer);
  }
  return providers;
}

function toProvider(entry: unknown, at: string): IdpProvider {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new Error(`${at} must be an object {issuer, jwksUri, audience}`);
  const { issuer, jwksUri, audience } = entry as Record<string, unknown>;
  if (!isNonEmptyString(issuer)) throw new Error(`${at}.issuer must be a non-empty string`);
  if (!isNonEmptyString(jwksUri)) throw new Error(`${at}.jwksUri must be a non-empty string`);
  assertJwksUri(jwksUri, `${at}.jwksUri`);
  const audienceValid = isNonEmptyString(audience) || (Array.isArray(audience) && audience.length > 0 && audience.every(isNonEmptyString));
  if (!audienceValid) throw new Error(`${at}.audience must be a non-empty string or a non-empty array of them`);
  return { issuer, jwksUri, audience: audience as string | string[] };
}

/** Throws unless `uri` is an absolute http(s) URL: jose fetches the key set from it. */
export function assertJwksUri(uri: string, name = 'jwksUri'): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, got ${JSON.stringify(uri)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${name} must be an absolute http(s) URL, got ${JSON.stringify(uri)}`);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
