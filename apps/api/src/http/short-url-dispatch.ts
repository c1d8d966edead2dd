import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { RESERVED_SLUGS } from '@lnk/links/domain';
import { shortUrlSlugOf } from '@lnk/links/adapter-http';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
type ServerOptions = { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number };
export type ServerFactory = (handler: Handler, options: ServerOptions) => Server;

/** The part of ShortUrlHandler the dispatch needs. */
export interface ShortUrls {
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

/** What Fastify makes when it is given no serverFactory, with the timeouts it would set. */
function plainServer(handler: Handler, options: ServerOptions): Server {
  const server = createServer(handler);
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  return server;
}

/**
 * The API process serves short URLs too (`npm start`: one port). A request for `/{slug}` goes to the
 * short-URL handler before Fastify's: through Fastify's serverFactory, the server's request handler is
 * this dispatch, which hands everything else to Fastify. What the API routes itself (a first path segment
 * of any of its routes, or a reserved slug) always goes to Fastify.
 */
export class ShortUrlDispatch {
  private shortUrls: ShortUrls | null = null;
  private readonly apiSegments = new Set<string>();

  /** Fastify's serverFactory: `given` (the listener bound early) or a plain server, with this dispatch in front. */
  serverFactory(given?: ServerFactory): ServerFactory {
    return (fastifyHandler, options) =>
      (given ?? plainServer)((request, response) => {
        if (this.shortUrls && this.isShortUrl(request.url) && this.shortUrls.handle(request, response)) return;
        fastifyHandler(request, response);
      }, options);
  }

  /** Every route Fastify registers (its onRoute hook): its first path segment is the API's, not a slug. */
  routeAdded(url: string): void {
    const segment = /^\/([^/:*?]+)(?:\/|$)/.exec(url)?.[1];
    if (segment) this.apiSegments.add(segment);
    this.lastSlug = null;
  }

  /** From now on, short URLs go to `shortUrls`; until then (start-up) and without it (SERVE_SHORT_URLS=false), to Fastify. */
  serve(shortUrls: ShortUrls): void {
    this.shortUrls = shortUrls;
  }

  private isShortUrl(url: string | undefined): boolean {
    const slug = shortUrlSlugOf(url);
    if (slug === null) return false;
    // Hot links repeat: the last slug's decision is kept (one entry; a route added forgets it).
    if (slug === this.lastSlug) return this.lastDecision;
    this.lastDecision = !this.apiSegments.has(slug) && !RESERVED_SLUGS.has(slug.toLowerCase());
    this.lastSlug = slug;
    return this.lastDecision;
  }

  private lastSlug: string | null = null;
  private lastDecision = false;
}
