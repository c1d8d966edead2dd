import type { AuthenticateUseCase, Principal } from '@lnk/identity/domain';
import { UnauthorizedError } from '@lnk/shared/kernel';
import { BearerStrategy } from './bearer.strategy';

/** What the strategy reads of a request. */
type BearerSource = { headers: Record<string, string | undefined>; query?: Record<string, unknown>; body?: unknown };

const principal = { userId: 'u1' } as Principal;

describe('BearerStrategy (passport-http-bearer reading a request)', () => {
  const seen: string[] = [];
  const strategy = new BearerStrategy({
    execute: async (token: string) => {
      seen.push(token);
      if (token === 'broken') throw new Error('database down');
      if (token !== 'good') throw new UnauthorizedError();
      return principal;
    },
  } as unknown as AuthenticateUseCase);
  const principalOf = (request: BearerSource) => strategy.principalOf(request);

  beforeEach(() => (seen.length = 0));

  it('takes the token of a two-part Bearer header, the scheme in any case', async () => {
    expect(await principalOf({ headers: { authorization: 'Bearer good' } })).toBe(principal);
    expect(await principalOf({ headers: { authorization: 'bEARER good' } })).toBe(principal);
    expect(seen).toEqual(['good', 'good']);
  });

  // A header Passport did not read as one token must not be read as one now (no token is guessed from it).
  it('refuses a header of more or fewer than two parts without validating anything', async () => {
    for (const authorization of ['Bearer  good', 'Bearer good extra', 'Bearer\tgood', 'Bearer']) {
      await expect(principalOf({ headers: { authorization } })).rejects.toBeInstanceOf(UnauthorizedError);
    }
    expect(seen).toEqual([]);
  });

  // A token in a URL leaks into logs and Referer headers: one given there beside the header is refused.
  it('refuses a token also given as access_token in the body or the query', async () => {
    await expect(principalOf({ headers: { authorization: 'Bearer good' }, query: { access_token: 'good' } })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(principalOf({ headers: { authorization: 'Bearer good' }, body: { access_token: 'good' } })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(seen).toEqual([]);
    expect(await principalOf({ headers: { authorization: 'Bearer good' }, query: { access_token: '' }, body: 'text' })).toBe(principal);
  });

  it('refuses no token and a token that does not validate, and passes a fault on as it is', async () => {
    await expect(principalOf({ headers: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(principalOf({ headers: { authorization: 'Basic abc' } })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(principalOf({ headers: { authorization: 'Bearer bad' } })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(principalOf({ headers: { authorization: 'Bearer broken' } })).rejects.toThrow('database down');
  });
});
