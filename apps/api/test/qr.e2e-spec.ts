import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import qrcode from 'qrcode';
import { DEFAULT_QR_POOL, QrRenderer } from '@lnk/links/adapter-nest';
import { createAccount, createPat } from './support/identity';
import { TestApp, useTestApp } from './support/test-app';

describe('GET /user/link/{id}/qr', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { env: { SHORT_BASE_URL: 'https://s.lnk.test' } });

  async function png(path: string, token: string) {
    const response = await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('answers a PNG that decodes to the short URL, or an SVG; another user gets 404; links:read is needed', async () => {
    const ada = await createAccount(t);
    const link = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://dest.example/page', slug: 'qr-me' },
    });
    const id = link.body.data.id;

    const image = await png(`/user/link/${id}/qr?size=200`, ada.accessToken);
    expect(image.status).toBe(200);
    expect(image.type).toBe('image/png');
    const decoded = PNG.sync.read(image.bytes);
    expect(decoded.width).toBe(200);
    expect(jsQR(new Uint8ClampedArray(decoded.data), decoded.width, decoded.height)?.data).toBe('https://s.lnk.test/qr-me?lnk_qr=1');

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

  // A 2048-pixel PNG used to hold the event loop for most of a second: the size is capped at 1024.
  it('refuses sizes above 1024 and draws a 1024-pixel PNG that decodes; a repeat answers the same bytes', async () => {
    const ada = await createAccount(t);
    const link = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://dest.example/big', slug: 'qr-big' },
    });
    const id = link.body.data.id;

    for (const size of [1025, 2048]) {
      const refused = await t.request('GET', `/user/link/${id}/qr?size=${size}`, { token: ada.accessToken });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', meta: { errors: [{ name: 'size' }] } });
    }
    const image = await png(`/user/link/${id}/qr?size=1024`, ada.accessToken);
    expect(image.status).toBe(200);
    const decoded = PNG.sync.read(image.bytes);
    expect(decoded.width).toBe(1024);
    expect(jsQR(new Uint8ClampedArray(decoded.data), decoded.width, decoded.height)?.data).toBe('https://s.lnk.test/qr-big?lnk_qr=1');
    expect((await png(`/user/link/${id}/qr?size=1024`, ada.accessToken)).bytes.equals(image.bytes)).toBe(true);

    // The cache follows the short URL: a new slug draws a new code.
    await t.request('PUT', `/user/link/${id}`, { token: ada.accessToken, body: { slug: 'qr-bigger' } });
    const renamed = PNG.sync.read((await png(`/user/link/${id}/qr?size=1024`, ada.accessToken)).bytes);
    expect(jsQR(new Uint8ClampedArray(renamed.data), renamed.width, renamed.height)?.data).toBe('https://s.lnk.test/qr-bigger?lnk_qr=1');
  });

  // Drawing happens off the event loop (a 1024-pixel PNG is a good part of a second of CPU): the main
  // thread never runs the drawing code, and other requests are answered while large codes are drawn.
  it('draws on worker threads, answering other requests while several large codes are being drawn', async () => {
    const ada = await createAccount(t);
    const link = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://dest.example/busy', slug: 'qr-busy' },
    });
    const id = link.body.data.id;
    const order: string[] = [];
    let health: Promise<void> | undefined;
    const renderer = t.app.get(QrRenderer);
    const render = renderer.render.bind(renderer);
    const onMainThread = [jest.spyOn(qrcode, 'toBuffer'), jest.spyOn(qrcode, 'toString'), jest.spyOn(qrcode, 'create')];
    const spy = jest.spyOn(renderer, 'render').mockImplementation((image) => {
      health ??= fetch(`${t.baseUrl}/health/live`).then((live) => {
        expect(live.status).toBe(200);
        order.push('live');
      });
      return render(image);
    });
    try {
      // Distinct sizes, so each is drawn (none comes from the cache).
      await Promise.all(
        [1024, 1023, 1022, 1021, 1020, 1019].map(async (size) => {
          expect((await png(`/user/link/${id}/qr?size=${size}`, ada.accessToken)).status).toBe(200);
          order.push(`qr ${size}`);
        }),
      );
      await health;
    } finally {
      for (const s of [spy, ...onMainThread]) s.mockRestore();
    }
    expect(order).toHaveLength(7);
    expect(order[0]).toBe('live');
    for (const s of onMainThread) expect(s).not.toHaveBeenCalled();
  });

  // The pool's queue is bounded: past it a request is told to come back, not queued without end.
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After while every thread is drawing and the queue is full', async () => {
    const ada = await createAccount(t);
    const link = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://dest.example/full', slug: 'qr-full' },
    });
    const id = link.body.data.id;
    const renderer = t.app.get(QrRenderer);
    const render = renderer.render.bind(renderer);
    const filling: Promise<unknown>[] = [];
    // Fills the threads and the queue in the same turn as the request's drawing, so it finds them full
    // however fast the machine draws.
    const spy = jest.spyOn(renderer, 'render').mockImplementationOnce((image) => {
      for (let i = 0; i < DEFAULT_QR_POOL.maxThreads + DEFAULT_QR_POOL.maxQueue; i++)
        filling.push(render({ text: `https://s.lnk.test/filler-${i}`, size: 64, format: 'svg' }));
      return render(image);
    });
    try {
      const busy = await t.request('GET', `/user/link/${id}/qr?format=svg`, { token: ada.accessToken });
      expect(busy.status).toBe(503);
      expect(busy.body).toEqual({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'Too many QR codes are being drawn, try again shortly',
      });
      expect(busy.headers.get('retry-after')).toBe('5');
      expect(filling).toHaveLength(DEFAULT_QR_POOL.maxThreads + DEFAULT_QR_POOL.maxQueue);
      await Promise.all(filling);
    } finally {
      spy.mockRestore();
    }
    // Once the queue has drained, the same request is drawn.
    expect((await t.request('GET', `/user/link/${id}/qr?format=svg`, { token: ada.accessToken })).status).toBe(200);
  });
});

describe('the QR code budget', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { env: { RATE_LIMIT_QR: '2/60', RATE_LIMIT_API: '1000/60' } });

  // QR codes cost far more to draw than other API calls: an account has a budget of them of its own.
  it('answers 429 with RateLimit headers once an account has used its QR budget, while its other API calls still answer', async () => {
    const ada = await createAccount(t);
    const link = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://dest.example/limited', slug: 'qr-limited' },
    });
    const id = link.body.data.id;
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await t.request('GET', `/user/link/${id}/qr?format=svg`, { token: ada.accessToken });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe('2');
      remaining.push(answer.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['1', '0']);
    const limited = await t.request('GET', `/user/link/${id}/qr?format=svg`, { token: ada.accessToken });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    const detail = await t.request('GET', `/user/link/${id}`, { token: ada.accessToken });
    expect(detail.status).toBe(200);
    expect(detail.headers.get('ratelimit-limit')).toBe('1000');
    // The audit (issue 27, item 8): each token had a QR budget of its own, so a fresh PAT drew more codes.
    const pat = await createPat(t, ada, ['links:read']);
    expect((await t.request('GET', `/user/link/${id}/qr?format=svg`, { token: pat.token })).status).toBe(429);
    // Another account's budget is its own.
    const grace = await createAccount(t);
    const theirs = await t.request('POST', '/user/link', {
      token: grace.accessToken,
      body: { url: 'https://dest.example/theirs', slug: 'qr-theirs' },
    });
    expect((await t.request('GET', `/user/link/${theirs.body.data.id}/qr?format=svg`, { token: grace.accessToken })).status).toBe(200);
  });
});
