import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
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

export interface HoldingReceiver extends WebhookReceiver {
  /** Requests received and not answered yet. */
  open(): number;
  /** The most requests it held open at once. */
  maxOpen(): number;
  /** Requests the sender gave up on (closed before an answer): its timeout fired. */
  abandoned(): number;
  /** Answers every held request (204), and from now on answers at once. */
  release(): void;
}

/**
 * A slow receiver whose slowness the test controls, so no test waits on a clock: it holds every request
 * unanswered until `release()`. What it holds at a given moment is what the sender has in flight to it.
 */
export async function startHoldingReceiver(): Promise<HoldingReceiver> {
  const got: Received[] = [];
  const held: ServerResponse[] = [];
  let holding = true;
  let maxOpen = 0;
  let abandoned = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      if (!holding) return void res.writeHead(204).end();
      held.push(res);
      maxOpen = Math.max(maxOpen, held.length);
      res.on('close', () => {
        const at = held.indexOf(res);
        if (at < 0) return;
        held.splice(at, 1);
        if (!res.writableEnded) abandoned++;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    events: () => got.map((g) => JSON.parse(g.body)),
    open: () => held.length,
    maxOpen: () => maxOpen,
    abandoned: () => abandoned,
    release: () => {
      holding = false;
      for (const res of held.splice(0)) res.writeHead(204).end();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
