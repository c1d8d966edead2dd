import type { Session } from './session';

/**
 * fetch for the API client: a request the API refuses with 401 (its access token revoked or lapsed) is
 * sent once more with a token the session refreshed, if it has one; otherwise the 401 stands and the
 * session has ended (the shell then shows the sign-in page).
 */
export function sessionFetch(session: Pick<Session, 'rejected'>, send: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const again = request.clone();
    const response = await send(request);
    if (response.status !== 401) return response;
    const used = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!used) return response;
    const fresh = await session.rejected(used);
    if (!fresh || fresh === used) return response;
    again.headers.set('authorization', `Bearer ${fresh}`);
    return send(again);
  };
}
