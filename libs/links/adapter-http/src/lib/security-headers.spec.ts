import { createServer, get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import { DOCUMENT_SECURITY_HEADERS, helmetHeaders } from './security-headers';

/** The headers helmet's own middleware sends on a real node:http answer, without those Node adds itself. */
async function sentByHelmet(options: HelmetOptions): Promise<IncomingHttpHeaders> {
  const middleware = helmet(options);
  const server = createServer((request, response) => middleware(request, response, () => response.end()));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const { port } = server.address() as AddressInfo;
    const headers = await new Promise<IncomingHttpHeaders>((answered, failed) =>
      get({ host: '127.0.0.1', port, agent: false }, (response) => answered(response.resume().headers)).on('error', failed),
    );
    const { date: _date, connection: _connection, 'content-length': _length, 'keep-alive': _keepAlive, ...own } = headers;
    return own;
  } finally {
    await new Promise((closed) => server.close(closed));
  }
}

describe('helmetHeaders', () => {
  // The list was copied from Helmet by hand; computed from the package, it follows its defaults and cannot drift from them.
  it("is what helmet's middleware sends, header for header: its defaults without a CSP, and with the API's CSP", async () => {
    expect({ ...DOCUMENT_SECURITY_HEADERS }).toEqual(await sentByHelmet({ contentSecurityPolicy: false }));
    const api: HelmetOptions = { contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } } };
    expect({ ...helmetHeaders(api) }).toEqual(await sentByHelmet(api));
  });

  it('answers a frozen object of lower-case names, the same for every answer', () => {
    expect(Object.isFrozen(DOCUMENT_SECURITY_HEADERS)).toBe(true);
    expect(Object.keys(DOCUMENT_SECURITY_HEADERS).every((name) => name === name.toLowerCase())).toBe(true);
    expect(DOCUMENT_SECURITY_HEADERS['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
