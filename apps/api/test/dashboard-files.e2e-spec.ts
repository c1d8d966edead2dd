import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildApp, BuiltDist } from './support/built-app';
import { startTestApp, TestApp } from './support/test-app';

/** The budget the issue sets for the dashboard's first load: JavaScript the browser fetches before it can show anything. */
const INITIAL_JS_BUDGET_BYTES = 250 * 1024;

describe('the dashboard at /app, served from its build', () => {
  let built: BuiltDist;
  let t: TestApp;
  let index: string;

  beforeAll(async () => {
    built = await buildApp();
    t = await startTestApp({ env: { DASHBOARD_DIR: join(built.dir, 'apps/web') } });
    index = (await t.request('GET', '/app/')).text;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    built?.remove();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(t.baseUrl + path, { headers });

  it(
    'answers /app and every client route with index.html under a strict ' + 'CSP (no inline script or style, no framing, no <base>)',
    async () => {
      for (const path of ['/app', '/app/', '/app/tokens', '/app/account', '/app/links/abc/stats?range=week', '/app/sign-in?error=denied']) {
        const res = await get(path);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        expect(res.headers.get('content-security-policy')).toBe(
          "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; " +
            "font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        );
        expect(await res.text()).toBe(index);
      }
    },
  );

  it('has no inline script, inline style, style attribute or event handler in index.html, which the CSP would block', () => {
    const scripts = [...index.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/app\/assets\/[\w-]+\.js"/);
      expect(body.trim()).toBe('');
    }
    expect(index).not.toMatch(/<style\b/i);
    expect(index).not.toMatch(/\sstyle=/i);
    expect(index).not.toMatch(/\son[a-z]+=/i);
  });

  it('serves the hashed assets for a year and gzipped when asked; an asset not in this build is a 404, not the page', async () => {
    const script = /src="(\/app\/assets\/[\w-]+\.js)"/.exec(index)?.[1] ?? '';
    const plain = await get(script);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = Buffer.from(await plain.arrayBuffer());
    const zipped = await fetch(t.baseUrl + script, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(Buffer.from(await zipped.arrayBuffer())).toEqual(body);
    const again = await get(script, { 'if-none-match': plain.headers.get('etag') ?? '' });
    expect(again.status).toBe(304);

    const missing = await get('/app/assets/index-0000000.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('keeps the initial JavaScript under 250 KB gzipped (the entry script and what index.html preloads)', () => {
    const initial = [...index.matchAll(/(?:src|href)="\/app\/(assets\/[\w-]+\.js)"/g)].map((m) => m[1]);
    expect(initial.length).toBeGreaterThan(0);
    const bytes = initial.reduce((sum, file) => sum + gzipSync(readFileSync(join(built.dir, 'apps/web', file)), { level: 9 }).length, 0);
    process.stderr.write(`[dashboard] initial JavaScript: ${(bytes / 1024).toFixed(1)} KB gzipped in ${initial.length} file(s)\n`);
    expect(bytes).toBeLessThan(INITIAL_JS_BUDGET_BYTES);

    // The figure the README and docs/dashboard.md report is this one (within 10 %), and the budget theirs:
    // a dashboard that grows cannot leave a stale number behind for a newcomer to trust.
    const root = join(__dirname, '..', '..', '..');
    const reported = [
      { doc: 'README.md', pattern: /first load is about (\d+) KB of JavaScript \(gzip; budget (\d+) KB/ },
      {
        doc: 'docs/dashboard.md',
        pattern: /first load fetches about (\d+) KB of JavaScript gzipped, the charts not included \(budget: (\d+) KB/,
      },
    ].map(({ doc, pattern }) => {
      const found = pattern.exec(readFileSync(join(root, doc), 'utf8').replace(/\s+/g, ' '));
      return { doc, kb: Number(found?.[1]), budget: Number(found?.[2]) };
    });
    const measuredKb = bytes / 1024;
    for (const { doc, kb, budget } of reported) {
      expect({
        doc,
        budget,
        withinTenPercent: Math.abs(kb - measuredKb) <= measuredKb * 0.1,
        kb,
        measuredKb: Math.round(measuredKb),
      }).toMatchObject({ doc, budget: INITIAL_JS_BUDGET_BYTES / 1024, withinTenPercent: true });
    }
  });

  it('answers a 404 envelope that says how to build it when there is no build', async () => {
    const bare = await startTestApp({ env: { DASHBOARD_DIR: join(built.dir, 'apps/no-such-build') } });
    try {
      const res = await bare.request('GET', '/app/tokens');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'The dashboard is not built: run npm run build (npm start builds it)',
      });
    } finally {
      await bare.close();
    }
  });
});
