import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ShortUrlAnswer, ShortUrlRequest } from '@lnk/links/domain';
import { hostNameOf, ShortUrlHandler, ShortUrlOutcome, shortUrlSlugOf } from './short-url.handler';
import { clientAddressOf, requestHostOf } from './client-address';

/** A stand-in for AnswerShortUrlUseCase: answers what the test says, and keeps what it was asked (copies). */
class ScriptedAnswers {
  readonly asked: ShortUrlRequest[] = [];
  constructor(public next: ShortUrlAnswer | Error) {}
  async execute(request: ShortUrlRequest): Promise<ShortUrlAnswer> {
    this.asked.push({ ...request });
    if (this.next instanceof Error) throw this.next;
    return { ...this.next };
  }
}

async function serve(options: { answers: ScriptedAnswers; shortBaseUrl?: string; blocked?: boolean }) {
  const counted: ShortUrlOutcome[] = [];
  const limitedKeys: string[] = [];
  const handler = new ShortUrlHandler({
    answer: options.answers,
    shortBaseUrl: options.shortBaseUrl ?? 'http://s.example',
    clientAddress: clientAddressOf(false),
    passwordForms: {
      consume: async (key) => (
        limitedKeys.push(key),
        {
          blocked: options.blocked ?? false,
          retryAfterSeconds: 30,
          headers: (options.blocked ? { 'retry-after': '30' } : {}) as Record<string, string>,
        }
      ),
    },
    counters: { count: (outcome) => counted.push(outcome) },
    onError: () => undefined,
  });
  const server: Server = createServer((request: IncomingMessage, response) => {
    if (!handler.handle(request, response)) response.writeHead(299).end('not mine');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, counted, limitedKeys, close: () => new Promise((resolve) => server.close(resolve)) };
}

const PAGE_HEADERS = [
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'strict-transport-security',
  'cross-origin-opener-policy',
  'x-permitted-cross-domain-policies',
];

describe('ShortUrlHandler (node:http, no framework)', () => {
  it('answers a redirect with Location, Cache-Control and Content-Length only: no document headers, no minted request id', async () => {
    const answers = new ScriptedAnswers({ kind: 'redirect', location: 'https://dest.example/a?b=1' });
    const app = await serve({ answers });
    try {
      const res = await fetch(`${app.base}/promo?utm_source=x`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0' } });
      expect(res.status).toBe(302);
      const names = [...res.headers.keys()].filter((n) => !['date', 'connection', 'keep-alive'].includes(n)).sort();
      expect(names).toEqual(['cache-control', 'content-length', 'location']);
      expect(res.headers.get('location')).toBe('https://dest.example/a?b=1');
      expect(res.headers.get('cache-control')).toBe('private, max-age=0');
      expect(res.headers.get('content-length')).toBe('0');
      expect(answers.asked[0]).toEqual({
        method: 'GET',
        host: '127.0.0.1',
        slug: 'promo',
        rawQuery: 'utm_source=x',
        userAgent: 'Mozilla/5.0',
        ip: '127.0.0.1',
      });
      expect(app.counted).toEqual(['redirect']);
    } finally {
      await app.close();
    }
  });

  it(
    'adds HSTS to redirects when short URLs are https (a downgrade of the next ' +
      'visit defended), and echoes a sane caller request id only',
    async () => {
      const app = await serve({
        answers: new ScriptedAnswers({ kind: 'redirect', location: 'https://dest.example/' }),
        shortBaseUrl: 'https://s.example',
      });
      try {
        const res = await fetch(`${app.base}/promo`, { redirect: 'manual', headers: { 'x-request-id': 'trace-1.a:b' } });
        expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
        expect(res.headers.get('x-request-id')).toBe('trace-1.a:b');
        // A header-splitting or oversized id is not reflected.
        const odd = await fetch(`${app.base}/promo`, { redirect: 'manual', headers: { 'x-request-id': 'x'.repeat(300) } });
        expect(odd.headers.get('x-request-id')).toBeNull();
      } finally {
        await app.close();
      }
    },
  );

  it('keeps every document header on the 404 and password pages (framing, sniffing, CSP defended), and sends no body on HEAD', async () => {
    const answers = new ScriptedAnswers({ kind: 'not-found' });
    const app = await serve({ answers });
    try {
      const missing = await fetch(`${app.base}/nothing`);
      expect(missing.status).toBe(404);
      for (const name of PAGE_HEADERS) expect(missing.headers.get(name)).toBeTruthy();
      expect(missing.headers.get('x-frame-options')).toBe('DENY');
      expect(missing.headers.get('content-security-policy')).toContain("form-action 'self'");
      expect(await missing.text()).toContain('Link not found');
      answers.next = { kind: 'password-form', slug: 'locked', status: 200 };
      const form = await fetch(`${app.base}/locked`);
      expect(form.status).toBe(200);
      for (const name of PAGE_HEADERS) expect(form.headers.get(name)).toBeTruthy();
      expect(await form.text()).toContain('action="/locked"');
      const head = await fetch(`${app.base}/locked`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(app.counted).toEqual(['not_found', 'password_page', 'password_page']);
    } finally {
      await app.close();
    }
  });

  it('sends NOT_FOUND_REDIRECT_URL as a bodiless redirect', async () => {
    const app = await serve({ answers: new ScriptedAnswers({ kind: 'not-found', redirectTo: 'https://home.example/' }) });
    try {
      const res = await fetch(`${app.base}/nothing`, { redirect: 'manual' });
      expect([res.status, res.headers.get('location'), res.headers.get('content-security-policy')]).toEqual([
        302,
        'https://home.example/',
        null,
      ]);
      expect(app.counted).toEqual(['not_found']);
    } finally {
      await app.close();
    }
  });

  it('reads the password from the form, counts the post against the address budget, and renders each outcome', async () => {
    const answers = new ScriptedAnswers({ kind: 'password-form', slug: 'locked', status: 401, error: 'That password is not right.' });
    const app = await serve({ answers });
    const post = (body: string, type = 'application/x-www-form-urlencoded') =>
      fetch(`${app.base}/locked?ref=1`, { method: 'POST', headers: { 'content-type': type }, body, redirect: 'manual' });
    try {
      const wrong = await post('password=a%26b');
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toContain('That password is not right.');
      expect(answers.asked[0]).toMatchObject({ method: 'POST', slug: 'locked', rawQuery: 'ref=1', password: 'a&b' });
      answers.next = {
        kind: 'password-form',
        slug: 'locked',
        status: 429,
        error: 'Too many wrong passwords; try again later.',
        retryAfterSeconds: 42,
      };
      const throttled = await post('password=x');
      expect([throttled.status, throttled.headers.get('retry-after')]).toEqual([429, '42']);
      answers.next = { kind: 'password-accepted', location: 'https://dest.example/?ref=1' };
      const accepted = await post('password=right');
      expect(accepted.status).toBe(200);
      expect(await accepted.text()).toContain('url=https://dest.example/?ref=1');
      await post('{"password":"from json"}', 'application/json');
      expect(answers.asked[3]).toMatchObject({ password: 'from json' });
      expect(app.limitedKeys).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.1']);
      expect(app.counted).toEqual(['password_failed', 'rate_limited', 'redirect', 'redirect']);
    } finally {
      await app.close();
    }
  });

  it('refuses a form over the public budget before any password is checked (guessing defended)', async () => {
    const answers = new ScriptedAnswers({ kind: 'password-accepted', location: 'https://dest.example/' });
    const app = await serve({ answers, blocked: true });
    try {
      const res = await fetch(`${app.base}/locked`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'password=right',
      });
      expect([res.status, res.headers.get('retry-after')]).toEqual([429, '30']);
      expect(answers.asked).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it(
    'refuses a body that is neither a form nor JSON (415), broken JSON (400) or too large ' +
      'for a form (413) without asking the domain (memory exhaustion defended)',
    async () => {
      const answers = new ScriptedAnswers({ kind: 'password-accepted', location: 'https://dest.example/' });
      const app = await serve({ answers });
      try {
        const xml = await fetch(`${app.base}/locked`, {
          method: 'POST',
          headers: { 'content-type': 'application/xml' },
          body: '<password/>',
        });
        expect(xml.status).toBe(415);
        const broken = await fetch(`${app.base}/locked`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
        expect(broken.status).toBe(400);
        const huge = await fetch(`${app.base}/locked`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `password=${'x'.repeat(64 * 1024)}`,
        });
        expect(huge.status).toBe(413);
        expect(answers.asked).toEqual([]);
      } finally {
        await app.close();
      }
    },
  );

  it('answers 503 when the domain fails, and leaves other paths and methods to whoever is behind it', async () => {
    const app = await serve({ answers: new ScriptedAnswers(new Error('database down')) });
    try {
      const failed = await fetch(`${app.base}/promo`);
      expect(failed.status).toBe(503);
      expect(failed.headers.get('content-security-policy')).toBeTruthy();
      expect(app.counted).toEqual(['error']);
      for (const [method, path] of [
        ['GET', '/'],
        ['GET', '/user/link'],
        ['DELETE', '/promo'],
        ['GET', '/has.dot'],
        ['GET', `/${'a'.repeat(65)}`],
      ]) {
        expect((await fetch(`${app.base}${path}`, { method })).status).toBe(299);
      }
    } finally {
      await app.close();
    }
  });
});

describe('ShortUrlHandler with an answer at hand (the cached link, answered without a promise)', () => {
  /** Answers synchronously through answer(), as AnswerShortUrlUseCase does for a cached link. */
  class ImmediateAnswers extends ScriptedAnswers {
    answer(request: ShortUrlRequest): ShortUrlAnswer {
      this.asked.push({ ...request });
      if (this.next instanceof Error) throw this.next;
      return { ...this.next };
    }
  }

  it('renders a synchronous answer the same way, and a synchronous failure as the 503 page counted once', async () => {
    const answers = new ImmediateAnswers({ kind: 'redirect', location: 'https://dest.example/' });
    const app = await serve({ answers, shortBaseUrl: 'https://s.example' });
    try {
      const res = await fetch(`${app.base}/promo`, { redirect: 'manual', headers: { 'x-request-id': 'abc' } });
      expect([res.status, res.headers.get('location'), res.headers.get('content-length'), res.headers.get('x-request-id')]).toEqual([
        302,
        'https://dest.example/',
        '0',
        'abc',
      ]);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(res.headers.get('content-security-policy')).toBeNull();
      answers.next = new Error('cache broken');
      const failed = await fetch(`${app.base}/promo`);
      expect(failed.status).toBe(503);
      expect(app.counted).toEqual(['redirect', 'error']);
    } finally {
      await app.close();
    }
  });
});

describe('shortUrlSlugOf', () => {
  it('reads each path right when paths alternate (another link answered through the last-answer memo defended)', () => {
    const urls = ['/promo', '/promo', '/promo?x=1', '/user/link', undefined, '/promo', '/', '/Other_1', '/promo'];
    expect(urls.map(shortUrlSlugOf)).toEqual(['promo', 'promo', 'promo', null, null, 'promo', null, 'Other_1', 'promo']);
  });
});

describe('hostNameOf', () => {
  it('names each host right when hosts alternate (a custom domain answered as another host through the last-answer memo defended)', () => {
    const hosts = [
      'S.Example:8080',
      'S.Example:8080',
      'go.brand.example',
      '[::1]:3000',
      undefined,
      'S.Example:8080',
      '',
      'go.brand.example',
    ];
    expect(hosts.map(hostNameOf)).toEqual(['s.example', 's.example', 'go.brand.example', '::1', '', 's.example', '', 'go.brand.example']);
  });

  // Issue 27: "go.brand.example." was not the verified go.brand.example, and fell to the default short domain.
  it('names a host spelled with the trailing dot of a fully qualified name as the name without it', () => {
    expect(['Go.Brand.Example.', 'go.brand.example.:443', 'go.brand.example..'].map(hostNameOf)).toEqual([
      'go.brand.example',
      'go.brand.example',
      'go.brand.example.',
    ]);
  });
});

describe('clientAddressOf (TRUST_PROXY as Fastify reads it)', () => {
  const request = (socket: string, forwarded?: string) =>
    ({ socket: { remoteAddress: socket }, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} }) as unknown as IncomingMessage;

  it('ignores X-Forwarded-For unless a proxy is trusted (a spoofed address defended)', () => {
    expect(clientAddressOf(false)(request('10.0.0.1', '1.2.3.4'))).toBe('10.0.0.1');
  });

  it('walks the forwarded chain from the right while the hop is trusted', () => {
    expect(clientAddressOf(true)(request('10.0.0.1', '9.9.9.9, 1.2.3.4'))).toBe('9.9.9.9');
    expect(clientAddressOf(1)(request('10.0.0.1', '9.9.9.9, 1.2.3.4'))).toBe('1.2.3.4');
    expect(clientAddressOf(['10.0.0.0/8'])(request('10.0.0.1', '9.9.9.9, 1.2.3.4'))).toBe('1.2.3.4');
    expect(clientAddressOf(['10.0.0.0/8', '1.2.3.4'])(request('10.0.0.1', '9.9.9.9, 1.2.3.4'))).toBe('9.9.9.9');
    expect(clientAddressOf(['loopback'])(request('::ffff:127.0.0.1', '5.5.5.5'))).toBe('5.5.5.5');
  });
});

describe('requestHostOf', () => {
  const request = (socket: string, host: string, forwarded?: string) =>
    ({
      socket: { remoteAddress: socket },
      headers: { host, ...(forwarded ? { 'x-forwarded-host': forwarded } : {}) },
    }) as unknown as IncomingMessage;

  it('believes X-Forwarded-Host only from a trusted proxy (a spoofed custom domain defended)', () => {
    expect(requestHostOf(false)(request('10.0.0.1', 'a.example', 'b.example'))).toBe('a.example');
    expect(requestHostOf(true)(request('10.0.0.1', 'a.example', 'x.example, b.example'))).toBe('b.example');
    expect(requestHostOf(['10.0.0.0/8'])(request('9.9.9.9', 'a.example', 'b.example'))).toBe('a.example');
    expect(requestHostOf(['10.0.0.0/8'])(request('10.1.1.1', 'a.example', 'b.example'))).toBe('b.example');
  });
});
