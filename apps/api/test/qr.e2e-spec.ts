import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { createAccount, createPat } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

describe('GET /user/link/{id}/qr', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { SHORT_BASE_URL: 'https://s.lnk.test' } });
  });
  afterAll(() => t?.close());

  async function png(path: string, token: string) {
    const response = await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('answers a PNG that decodes to the short URL, or an SVG; another user gets 404; links:read is needed', async () => {
    const ada = await createAccount(t);
    const link = await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://dest.example/page', slug: 'qr-me' } });
    const id = link.body.data.id;

    const image = await png(`/user/link/${id}/qr?size=200`, ada.accessToken);
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/png');
    const decoded = PNG.sync.read(image.bytes);
    expect(decoded.width).toBe(200);
    expect(jsQR(new Uint8ClampedArray(decoded.data), decoded.width, decoded.height)?.data).toBe('https://s.lnk.test/qr-me');

    const svg = await t.request('GET', `/user/link/${id}/qr?format=svg`, { token: ada.accessToken });
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.text).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);

    const bad = await t.request('GET', `/user/link/${id}/qr?format=gif&size=9`, { token: ada.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.meta.errors.map((e: { name: string }) => e.name).sort()).toEqual(['format', 'size']);

    const bob = await createAccount(t);
    expect((await t.request('GET', `/user/link/${id}/qr`, { token: bob.accessToken })).status).toBe(404);
    const writeOnly = await createPat(t, ada, ['links:write']);
    expect((await t.request('GET', `/user/link/${id}/qr`, { token: writeOnly.token })).status).toBe(403);
  });
});
