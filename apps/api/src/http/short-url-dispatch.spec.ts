import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { ShortUrlDispatch } from './short-url-dispatch';

describe('ShortUrlDispatch', () => {
  it(
    'sends a path to Fastify once a route takes its segment, though the same slug was ' +
      'a short URL just before (an API route shadowed by a link defended)',
    () => {
      const dispatch = new ShortUrlDispatch();
      const shortUrls: string[] = [];
      const fastify: string[] = [];
      let handler: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;
      dispatch.serverFactory((given) => {
        handler = given;
        return {} as Server;
      })((request) => fastify.push(request.url as string), {});
      dispatch.serve({ handle: (request) => (shortUrls.push(request.url as string), true) });
      const send = (url: string) => handler({ url } as IncomingMessage, {} as ServerResponse);
      for (const url of ['/promo', '/promo', '/health', '/promo?x=1', '/Health', '/reports']) send(url);
      dispatch.routeAdded('/reports/:id');
      send('/reports');
      send('/promo');
      expect(shortUrls).toEqual(['/promo', '/promo', '/promo?x=1', '/reports', '/promo']);
      expect(fastify).toEqual(['/health', '/Health', '/reports']);
    },
  );
});
