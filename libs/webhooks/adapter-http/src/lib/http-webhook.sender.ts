import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { SendResult, WebhookSender } from '@lnk/webhooks/domain';
import { parseUrl } from '@lnk/shared/kernel';
import { internalAddressProblem } from './internal-addresses';

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
    // The agents refuse private and loopback addresses (unless allowed) and the unspecified one; the
    // always-denied link-local and metadata ranges are refused by the lookup below (the agents' own deny
    // list warns on every address of the other IP version) and, for an address in the URL, before sending.
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
      const literal = isIP(host) ? internalAddressProblem(host, this.options.allowPrivate) : null;
      if (literal) {
        finish({ status: null, error: `address not allowed: ${literal}` });
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
          lookup: refusingDenied(this.options.lookup ?? (dnsLookup as LookupFunction)),
        },
        (res: IncomingMessage) => this.drain(res, () => finish({ status: res.statusCode ?? null, error: null })),
      );
      deadline.timer = setTimeout(() => {
        req.destroy(new Error(`no answer within ${this.timeoutMs / 1000} s`));
      }, this.timeoutMs);
      req.on('error', (error) => finish({ status: null, error: error.message }));
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

/** A lookup that fails when the name resolves to a link-local or metadata address (refused even with allowPrivate). */
function refusingDenied(lookup: LookupFunction): LookupFunction {
  return ((hostname: string, options: object, callback: (error: Error | null, address?: unknown, family?: number) => void) =>
    lookup(hostname, options as never, ((error: Error | null, address: string | { address: string }[], family?: number) => {
      if (error) return callback(error);
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      for (const a of addresses) {
        const problem = internalAddressProblem(a, true);
        if (problem) return callback(new Error(`address not allowed: ${problem}`));
      }
      callback(null, address, family);
    }) as never)) as LookupFunction;
}
