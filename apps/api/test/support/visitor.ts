/**
 * A browser's User-Agent. Visits count only from visitors that are not bots by isbot's list, and Node's
 * fetch() says "node" (a script, like curl): tests that expect a visit counted send this.
 */
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

/** Headers of a request a browser sent. */
export const asBrowser = (headers: Record<string, string> = {}): Record<string, string> => ({ 'user-agent': BROWSER_USER_AGENT, ...headers });
