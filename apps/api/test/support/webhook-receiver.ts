import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  got: Received[];
  /** The `type` and `data` of every body received, in arrival order. */
  events(): { type: string; data: Record<string, any> }[];
  close(): Promise<void>;
}

/**
 * A receiver on loopback: answers each request with what `answer` says (by the count so far), keeps what it
 * got. `port`: a given one (a receiver that comes back where a webhook points), else a free one.
 */
export async function startWebhookReceiver(answer: (n: number) => number = () => 204, port = 0): Promise<WebhookReceiver> {
  const got: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = answer(got.length);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/hook`,
    got,
    events: () => got.map((g) => JSON.parse(g.body)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Polls `what` until `ok` says yes or the time is up; answers the last value either way (the test asserts on it). */
export async function until<T>(what: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
