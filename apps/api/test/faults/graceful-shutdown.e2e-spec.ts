import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { call, operatorAccount, spawnBuiltApp, SpawnedApp, useBuiltApp } from '../support/built-app';
import { asBrowser } from '../support/visitor';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A POST whose headers and half its body are sent now, the rest only on `finish()`: in flight for as long as the test wants. */
function requestInFlight(baseUrl: string, path: string, text: string, contentType: string) {
  const url = new URL(path, baseUrl);
  const req = httpRequest({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    agent: false,
    headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(text) },
  });
  const response = new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = raw;
        try {
          parsed = JSON.parse(raw);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
  });
  req.flushHeaders();
  const half = Math.floor(text.length / 2);
  req.write(text.slice(0, half));
  return { response, finish: () => req.end(text.slice(half)) };
}

/**
 * A request in flight on a raw connection (headers and half its body sent) and, once `finish()` sends the
 * rest, a second request pipelined right behind it on the same connection: a request that arrives while
 * the server drains, on a connection the drain cannot close (it is busy). `answers` is all the connection
 * received before it closed.
 */
function pipelinedBehindInFlight(baseUrl: string, path: string, text: string, next: string) {
  const url = new URL(baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const answers = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', () => undefined);
  });
  const half = Math.floor(text.length / 2);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: ` +
      'application/json\r\nContent-Length: ' +
      `${Buffer.byteLength(text)}\r\n\r\n${text.slice(0, half)}`,
  );
  return { answers, finish: () => socket.write(`${text.slice(half)}GET ${next} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`) };
}

/** One GET on a connection of its own (no keep-alive pool): what a new client sees. */
function freshGet(
  baseUrl: string,
  path: string,
): Promise<{ status: number; body: string; headers: Record<string, unknown> } | { error: string }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'GET', agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

describe('graceful shutdown of the built app (SIGTERM)', () => {
  let app: SpawnedApp | undefined;

  const fixture = useBuiltApp(async () => app?.stop(2000));

  it('finishes in-flight requests, turns new ones away, writes every counted click and exits 0 within 10 s', async () => {
    const { dist, db } = fixture();
    // bcrypt at cost 12: the in-flight requests below are still working while the shutdown proceeds.
    const env = { ...db.env, BCRYPT_COST: '12', LOG_LEVEL: 'info' };
    const { grant } = await operatorAccount(dist, env, 'shutdown');

    app = await spawnBuiltApp(dist, env);
    const { baseUrl } = app;
    const signIn = await call(baseUrl, 'POST', '/oauth/token', { body: grant });
    expect(signIn.status).toBe(200);
    const created = await call(baseUrl, 'POST', '/user/link', {
      token: signIn.body.data.access_token,
      body: { url: 'https://example.com/', slug: 'burst' },
    });
    expect(created.status).toBe(200);
    const linkId: string = created.body.data.id;
    const locked = await call(baseUrl, 'POST', '/user/link', {
      token: signIn.body.data.access_token,
      body: { url: 'https://example.com/locked', slug: 'locked', hasPassword: true, password: 'open sesame' },
    });
    expect(locked.status).toBe(200);
    // The first redirect reads the link into the cache; it is counted like the rest.
    expect((await fetch(`${baseUrl}/burst`, { redirect: 'manual', headers: asBrowser() })).status).toBe(302);

    // A stream of redirects from 16 clients over keep-alive connections, each until the server stops answering 302.
    const outcomes = { redirected: 1, turnedAway: 0, errors: [] as string[], other: [] as number[] };
    let stopStream = false;
    const streams = Array.from({ length: 16 }, async (_, i) => {
      while (!stopStream) {
        try {
          const res = await fetch(`${baseUrl}/burst?utm_source=s${i % 4}`, { redirect: 'manual', headers: asBrowser() });
          await res.arrayBuffer();
          if (res.status === 302) outcomes.redirected++;
          else if (res.status === 503) {
            outcomes.turnedAway++;
            return;
          } else {
            outcomes.other.push(res.status);
            return;
          }
        } catch (error) {
          outcomes.errors.push(String((error as { cause?: { code?: string } }).cause?.code ?? error));
          return;
        }
      }
    });
    const ended = () => outcomes.turnedAway + outcomes.errors.length + outcomes.other.length;
    while (outcomes.redirected < 300 && ended() === 0) await sleep(10);
    expect({ ...outcomes, redirected: outcomes.redirected >= 300 }).toEqual({ redirected: true, turnedAway: 0, errors: [], other: [] });

    // In flight at the signal: a password grant and a link password whose bodies are half sent (routed,
    // waiting for the rest). Once complete, each takes a bcrypt comparison, and the unlock counts a click.
    const halfSent = requestInFlight(baseUrl, '/oauth/token', JSON.stringify(grant), 'application/json');
    const unlocking = requestInFlight(
      baseUrl,
      '/locked',
      new URLSearchParams({ password: 'open sesame' }).toString(),
      'application/x-www-form-urlencoded',
    );
    const pipelined = pipelinedBehindInFlight(baseUrl, '/oauth/token', JSON.stringify(grant), '/user/me');
    await sleep(300);

    const signalledAt = Date.now();
    app.child.kill('SIGTERM');

    // New clients, once the shutdown has begun (a stream has been turned away), are refused or answered 503.
    while (ended() === 0 && Date.now() - signalledAt < 5000) await sleep(5);
    expect(ended()).toBeGreaterThan(0);
    const probes: Awaited<ReturnType<typeof freshGet>>[] = [];
    probes.push(await freshGet(baseUrl, '/health/live'));
    await sleep(150);
    halfSent.finish();
    unlocking.finish();
    pipelined.finish();
    for (let i = 0; i < 5 && app.running(); i++) {
      probes.push(await freshGet(baseUrl, '/health/live'));
      await sleep(20);
    }

    const [grantAnswer, unlockAnswer] = await Promise.all([halfSent.response, unlocking.response]);
    stopStream = true;
    await Promise.all(streams);
    const exit = await app.exited;
    const shutdownMs = Date.now() - signalledAt;
    const log = app.output();

    // The request that came in during the drain, behind one in flight: turned away in the envelope, as
    // every API answer (Fastify's own closing body is not one), told when to retry, with its request id.
    const onBusyConnection = await pipelined.answers;
    const turnedAway = /HTTP\/1\.1 503 [^\r]*\r\n([\s\S]*?)\r\n\r\n(\{[^\n]*\})/.exec(onBusyConnection);
    expect(onBusyConnection).toMatch(/^HTTP\/1\.1 200 /);
    expect(turnedAway).not.toBeNull();
    expect(JSON.parse(turnedAway?.[2] ?? '{}')).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
    expect(turnedAway?.[1]).toMatch(/^retry-after: 5$/im);
    expect(turnedAway?.[1]).toMatch(/^x-request-id: \S+$/im);
    expect(grantAnswer.status).toBe(200);
    expect(grantAnswer.body.data.access_token).toMatch(/^at_/);
    // The right password answers a page that goes on to the destination.
    expect(unlockAnswer.status).toBe(200);
    expect(unlockAnswer.body).toContain('<meta http-equiv="refresh" content="0; url=https://example.com/locked">');
    expect(outcomes.other).toEqual([]);
    expect(outcomes.turnedAway + outcomes.errors.length).toBe(16);
    for (const probe of probes) {
      if ('status' in probe) {
        expect(probe.status).toBe(503);
        expect(JSON.parse(probe.body)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      } else expect(probe.error).toMatch(/ECONNREFUSED|ECONNRESET|socket hang up/);
    }
    expect(exit).toEqual({ code: 0, signal: null });
    expect(shutdownMs).toBeLessThan(10_000);
    expect(log).not.toMatch(/could not be written|flush at shutdown failed/);

    // Every redirect answered 302 was counted and written before the database closed.
    const [stats] = await db.query<{ visits: number }>(
      'SELECT COALESCE(sum(visits), 0)::int AS visits FROM link_daily_stats WHERE link_id = $1',
      [linkId],
    );
    const [link] = await db.query<{ clicks: number }>(
      'SELECT COALESCE((SELECT clicks::int FROM link_clicks WHERE link_id = $1), 0) AS clicks',
      [linkId],
    );
    expect({ visits: stats.visits, clicks: link.clicks }).toEqual({ visits: outcomes.redirected, clicks: outcomes.redirected });
    // The unlock was answered while the server drained, after the timer's last write: counted all the same.
    const [unlocked] = await db.query<{ visits: number; passed: number }>(
      'SELECT COALESCE(sum(visits), 0)::int AS visits, ' +
        'COALESCE(sum(password_passed), 0)::int AS passed FROM link_daily_stats ' +
        'WHERE link_id = $1',
      [locked.body.data.id],
    );
    expect(unlocked).toEqual({ visits: 1, passed: 1 });
  }, 60_000);
});
