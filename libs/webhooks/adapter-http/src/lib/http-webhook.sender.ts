import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { DESTINATION_REFUSED, SendResult, WebhookSender } from '@lnk/webhooks/domain';
import { parseUrl } from '@lnk/shared/kernel';
import { isAllowedAddress } from './internal-addresses';

export interface SenderOptions {
  /** WEBHOOKS_ALLOW_PRIVATE: loopback and private addresses may be connected to (never link-local or metadata ones). */
  allowPrivate: boolean;
  /** The whole exchange, connecting included. */
  timeoutMs?: number;
  /** Most response bytes read; the rest is not waited for. */
  maxResponseBytes?: number;
  /** Tests: how host names resolve (the check applies to what it answers). */
  lookup?: LookupFunction;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Sends a webhook with node:http(s) through request-filtering-agent's agents: the address a host name
 * resolves to is checked when the connection is made, so a name that resolved to a public address at
 * creation and to 127.0.0.1 now (DNS rebinding) is refused. Redirects are not followed (node:http never
 * does; a 3xx is a failed attempt), the exchange is bounded by `timeoutMs` and at most
 * `maxResponseBytes` of the answer are read.
 */
export class HttpWebhookSender extends WebhookSender {
  private readonly httpAgent: RequestFilteringHttpAgent;
  private readonly httpsAgent: RequestFilteringHttpsAgent;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(private readonly options: SenderOptions) {
    super();
    // The lookup below refuses what isAllowedAddress refuses (and an address in the URL is checked before
    // sending), so its refusal is ours to word; the agents check again, a second line behind it (their
    // own deny list warns on every address of the other IP version, hence the link-local ranges are ours).
    const filter = { allowPrivateIPAddress: options.allowPrivate, allowMetaIPAddress: false, keepAlive: true };
    this.httpAgent = new RequestFilteringHttpAgent(filter);
    this.httpsAgent = new RequestFilteringHttpsAgent(filter);
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  }

  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      // Set once the request exists; an early finish (a bad URL) has none to clear.
      const deadline: { timer?: NodeJS.Timeout } = {};
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline.timer);
        resolve(result);
      };
      const target = parseUrl(url);
      if (!target) {
        finish({ status: null, error: 'the url is not valid' });
        return;
      }
      const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(host) && !isAllowedAddress(host, this.options.allowPrivate)) {
        finish({ status: null, error: DESTINATION_REFUSED });
        return;
      }
      const secure = target.protocol === 'https:';
      const make = secure ? httpsRequest : httpRequest;
      const req = make(
        target,
        {
          method: 'POST',
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: refusing(this.options.lookup ?? (dnsLookup as LookupFunction), this.options.allowPrivate),
        },
        (res: IncomingMessage) => this.drain(res, () => finish({ status: res.statusCode ?? null, error: null })),
      );
      deadline.timer = setTimeout(() => {
        req.destroy(new NoAnswer(this.timeoutMs));
      }, this.timeoutMs);
      req.on('error', (error) => finish({ status: null, error: failureText(error) }));
      req.end(body);
    });
  }

  /** Reads at most maxResponseBytes of the answer, then lets the connection go. */
  private drain(res: IncomingMessage, done: () => void): void {
    let read = 0;
    res.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > this.maxResponseBytes) {
        res.destroy();
        done();
      }
    });
    res.on('end', done);
    res.on('close', done);
    res.on('error', done);
  }
}

/** The host did not resolve, or resolved to an address a webhook may not reach: which, and to what, is not told. */
class DestinationRefused extends Error {
  constructor() {
    super(DESTINATION_REFUSED);
  }
}

class NoAnswer extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs / 1000} s`);
  }
}

/** A lookup that fails with DestinationRefused when the name does not resolve or any address it resolves to is not allowed. */
function refusing(lookup: LookupFunction, allowPrivate: boolean): LookupFunction {
  return ((hostname: string, options: object, callback: (error: Error | null, address?: unknown, family?: number) => void) =>
    lookup(
      hostname,
      options as never,
      ((error: Error | null, address: string | { address: string }[], family?: number) => {
        if (error) return callback(new DestinationRefused());
        const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
        if (addresses.length === 0 || !addresses.every((a) => isAllowedAddress(a, allowPrivate))) return callback(new DestinationRefused());
        callback(null, address, family);
      }) as never,
    )) as LookupFunction;
}

/** Network errors by code, in words that name no address (Node's own messages do: "connect ECONNREFUSED 10.0.0.5:443"). */
const FAILURES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was closed before an answer',
  EPIPE: 'the connection was closed before an answer',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the host is unreachable',
};

/**
 * The owner's `lastError` for a failed exchange: a fixed text, never the error's own message, so that
 * nothing the network or the resolver said (addresses, names, resolution details) reaches the owner.
 */
function failureText(error: Error): string {
  if (error instanceof DestinationRefused || error instanceof NoAnswer) return error.message;
  const code = typeof (error as NodeJS.ErrnoException).code === 'string' ? ((error as NodeJS.ErrnoException).code ?? '') : '';
  const known = FAILURES[code];
  if (known) return known;
  const safeCode = /^[A-Z][A-Z0-9_]{1,60}$/.test(code) ? code : '';
  if (/^ERR_TLS_|^ERR_SSL_|CERT/.test(safeCode)) return `the TLS handshake failed (${safeCode})`;
  return safeCode ? `the request failed (${safeCode})` : 'the request failed';
}
