import { parseIdpProviders } from './idp-providers';

describe('parseIdpProviders', () => {
  it('reads a list of providers with a single or several audiences', () => {
    const json = JSON.stringify([
      { issuer: 'https://accounts.google.com', jwksUri: 'https://www.googleapis.com/oauth2/v3/certs', audience: 'web-client-id' },
      { issuer: 'http://127.0.0.1:8080/realms/lnk', jwksUri: 'http://127.0.0.1:8080/realms/lnk/certs', audience: ['web', 'mobile'] },
    ]);
    expect(parseIdpProviders(json)).toEqual([
      { issuer: 'https://accounts.google.com', jwksUri: 'https://www.googleapis.com/oauth2/v3/certs', audience: 'web-client-id' },
      { issuer: 'http://127.0.0.1:8080/realms/lnk', jwksUri: 'http://127.0.0.1:8080/realms/lnk/certs', audience: ['web', 'mobile'] },
    ]);
  });

  it.each([
    ['unset', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('gives no providers when the variable is %s', (_what, value) => {
    expect(parseIdpProviders(value)).toEqual([]);
  });

  it('accepts an empty array', () => {
    expect(parseIdpProviders('[]')).toEqual([]);
  });

  it.each([
    ['is not JSON', '[{issuer:', /IDP_PROVIDERS .*not valid JSON/],
    ['is an object, not an array', '{"issuer":"https://idp.test"}', /IDP_PROVIDERS must be a JSON array/],
    ['holds a string entry', '["https://idp.test"]', /IDP_PROVIDERS\[0\] must be an object/],
    ['holds a null entry', '[null]', /IDP_PROVIDERS\[0\] must be an object/],
  ])('refuses a value that %s, naming IDP_PROVIDERS', (_what, value, message) => {
    expect(() => parseIdpProviders(value)).toThrow(message);
  });

  const valid = { issuer: 'https://idp.test', jwksUri: 'https://idp.test/jwks', audience: 'lnk-web' };

  it.each([
    ['a missing issuer', { ...valid, issuer: undefined }, /IDP_PROVIDERS\[0\]\.issuer must be a non-empty string/],
    ['a blank issuer', { ...valid, issuer: ' ' }, /IDP_PROVIDERS\[0\]\.issuer/],
    ['a missing jwksUri', { ...valid, jwksUri: undefined }, /IDP_PROVIDERS\[0\]\.jwksUri must be a non-empty string/],
    ['a missing audience', { ...valid, audience: undefined }, /IDP_PROVIDERS\[0\]\.audience/],
    ['an empty audience list', { ...valid, audience: [] }, /IDP_PROVIDERS\[0\]\.audience/],
    ['an audience list with a non-string', { ...valid, audience: ['web', 7] }, /IDP_PROVIDERS\[0\]\.audience/],
  ])('refuses a provider with %s', (_what, provider, message) => {
    expect(() => parseIdpProviders(JSON.stringify([provider]))).toThrow(message);
  });

  it.each([
    ['relative', '/jwks'],
    ['not a URL', 'not a url'],
    ['of another scheme', 'ftp://idp.test/jwks'],
  ])('refuses a jwksUri that is %s', (_what, jwksUri) => {
    expect(() => parseIdpProviders(JSON.stringify([{ ...valid, jwksUri }]))).toThrow(
      /IDP_PROVIDERS\[0\]\.jwksUri must be an absolute http\(s\) URL/,
    );
  });

  it('names the position of the bad entry', () => {
    expect(() => parseIdpProviders(JSON.stringify([valid, { ...valid, issuer: 'https://other.test', jwksUri: 'jwks' }]))).toThrow(
      /IDP_PROVIDERS\[1\]\.jwksUri/,
    );
  });

  it('refuses two providers with the same issuer', () => {
    expect(() => parseIdpProviders(JSON.stringify([valid, { ...valid, audience: 'other' }]))).toThrow(/IDP_PROVIDERS\[1\]\.issuer repeats/);
  });
});
