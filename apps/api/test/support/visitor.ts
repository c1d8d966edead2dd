import { request as httpRequest } from 'node:http';

/**
 * A browser's User-Agent. Visits count only from visitors that are not bots by isbot's list, and Node's
 * fetch() says "node" (a script, like curl): tests that expect a visit counted send this.
 */
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

/** Headers of a request a browser sent. */
export const asBrowser = (headers: Record<string, string> = {}): Record<string, string> => ({
  'user-agent': BROWSER_USER_AGENT,
  ...headers,
});

/** A request with this Host header, as a custom domain's visitor sends it: fetch() drops a Host header; node:http sends it as given. */
export function visitAs(baseUrl: string, host: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; location: string | undefined; contentType: string | undefined; body: string }>((resolve, reject) => {
    const url = new URL(baseUrl + path);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { host, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            contentType: res.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}
