import { Body, Controller } from '@nestjs/common';
import { IsString } from 'class-validator';
import { type Caller, CurrentPrincipal, object, ok, Route, string } from '@lnk/shared/http';
import { sql } from '@lnk/shared/database';
import { IdempotencyKeySweeper } from '../src/idempotency/idempotency.module';
import { createAccount, createPat, type TestAccount } from './support/identity';
import { useTwoInstances } from './support/instances';
import { type HttpResult, startTestApp, type TestApp } from './support/test-app';

const KEY = 'Idempotency-Key';
const linksOf = async (t: TestApp, account: TestAccount) =>
  (await t.request('GET', '/user/link?limit=100', { token: account.accessToken })).body;

/** A replay: the first answer again, its status and body, marked as replayed. */
function expectReplayOf(replay: HttpResult, first: HttpResult): void {
  expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed'), body: replay.body }).toEqual({
    status: first.status,
    replayed: 'true',
    body: first.body,
  });
}

describe('Idempotency-Key on the POSTs that create something (two instances, one database)', () => {
  const instances = useTwoInstances();
  let a: TestApp;
  let b: TestApp;
  beforeAll(() => ({ a, b } = instances()));

  // A client that retries after a lost answer must not get a second link.
  it('answers a retry with the first answer, replayed, and creates nothing more', async () => {
    const account = await createAccount(a);
    const body = { url: 'https://example.com/once', title: 'once' };
    const first = await a.request('POST', '/user/link', { token: account.accessToken, body, headers: { [KEY]: 'retry-1' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same fields in another order are the same request; the other instance answers it as well.
    const again = await b.request('POST', '/user/link', {
      token: account.accessToken,
      body: { title: 'once', url: 'https://example.com/once' },
      headers: { [KEY]: 'retry-1' },
    });
    expectReplayOf(again, first);
    expect((await linksOf(a, account)).meta.total).toBe(1);
  });

  // A key bound to one request: another body under it is a client bug, told, and nothing is made.
  it('refuses the key with another body with 422 IDEMPOTENCY_KEY_REUSED, and creates nothing', async () => {
    const account = await createAccount(a);
    await a.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/a' }, headers: { [KEY]: 'k' } });
    const other = await a.request('POST', '/user/link', {
      token: account.accessToken,
      body: { url: 'https://example.com/b' },
      headers: { [KEY]: 'k' },
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // The same key on another route is another request too.
    const tag = await a.request('POST', '/user/tag', { token: account.accessToken, body: { name: 'x' }, headers: { [KEY]: 'k' } });
    expect(tag.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await linksOf(a, account)).meta.total).toBe(1);
    expect((await a.request('GET', '/user/tag', { token: account.accessToken })).body.meta.total).toBe(0);
  });

  // Keys are per account: another account's key of the same text and body never replays the first account's answer.
  it("keeps each account's keys apart: the same key and body by another account makes that account's own link", async () => {
    const [ada, bob] = [await createAccount(a), await createAccount(a)];
    const body = { url: 'https://example.com/shared-key' };
    const adas = await a.request('POST', '/user/link', { token: ada.accessToken, body, headers: { [KEY]: 'same-text' } });
    const bobs = await a.request('POST', '/user/link', { token: bob.accessToken, body, headers: { [KEY]: 'same-text' } });
    expect(bobs.status).toBe(200);
    expect(bobs.headers.get('idempotent-replayed')).toBeNull();
    expect(bobs.body.data.id).not.toBe(adas.body.data.id);
    expect((await linksOf(a, bob)).data.map((l: { id: string }) => l.id)).toEqual([bobs.body.data.id]);
  });

  // The race the key exists for: a client's retries (or two of its workers) hitting two instances at once.
  it('creates one link from concurrent requests with one key on two instances; the others replay it or are told it is in use', async () => {
    const account = await createAccount(a);
    const body = { url: 'https://example.com/race' };
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? a : b).request('POST', '/user/link', { token: account.accessToken, body, headers: { [KEY]: 'race' } }),
      ),
    );
    expect((await linksOf(a, account)).meta.total).toBe(1);
    const ok = answers.filter((r) => r.status === 200);
    expect(new Set(ok.map((r) => r.body.data.id)).size).toBe(1);
    expect(ok.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const r of answers.filter((r) => r.status !== 200)) expect([r.status, r.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    // Once the first has answered, every retry replays it.
    const after = await b.request('POST', '/user/link', { token: account.accessToken, body, headers: { [KEY]: 'race' } });
    expect(after.body.data.id).toBe(ok[0].body.data.id);
  });

  // Stripe keeps a request's client error: the retry is told the same, and the request is not run again.
  it('replays a 4xx answer (a taken slug) without running the request again, even once the slug is free', async () => {
    const account = await createAccount(a);
    const taken = await a.request('POST', '/user/link', {
      token: account.accessToken,
      body: { url: 'https://example.com/1', slug: 'taken-slug' },
    });
    const refused = await a.request('POST', '/user/link', {
      token: account.accessToken,
      body: { url: 'https://example.com/2', slug: 'taken-slug' },
      headers: { [KEY]: 'slug' },
    });
    expect(refused.status).toBe(400);
    await a.request('DELETE', `/user/link/${taken.body.data.id}`, { token: account.accessToken });
    const replayed = await a.request('POST', '/user/link', {
      token: account.accessToken,
      body: { url: 'https://example.com/2', slug: 'taken-slug' },
      headers: { [KEY]: 'slug' },
    });
    expectReplayOf(replayed, refused);
    expect((await linksOf(a, account)).meta.total).toBe(0);
  });

  // A token value is shown once: it is never stored for a replay, so a replay cannot hand it out again.
  it('refuses the replay of an answer that held a secret with 409 IDEMPOTENCY_REPLAY_UNAVAILABLE, made once and not stored', async () => {
    const account = await createAccount(a);
    const body = { name: 'ci', scopes: ['links:read'] };
    const first = await a.request('POST', '/user/tokens', { token: account.accessToken, body, headers: { [KEY]: 'pat' } });
    expect(first.status).toBe(200);
    const again = await b.request('POST', '/user/tokens', { token: account.accessToken, body, headers: { [KEY]: 'pat' } });
    expect([again.status, again.body.code]).toEqual([409, 'IDEMPOTENCY_REPLAY_UNAVAILABLE']);
    expect(again.text).not.toContain(first.body.data.token);
    expect((await a.request('GET', '/user/tokens', { token: account.accessToken })).body.meta.total).toBe(1);
    const client = await a.request('POST', '/user/oauth-clients', {
      token: account.accessToken,
      body: { name: 'app', scopes: ['links:read'], redirectUris: ['https://app.example.com/cb'] },
      headers: { [KEY]: 'client' },
    });
    expect(client.status).toBe(200);
    const { rows } = await sql<{ answer: string | null }>(a.dataSource, 'SELECT answer FROM idempotency_keys WHERE owner_id = $1', [
      account.id,
    ]);
    expect(rows.map((r) => r.answer)).toEqual([null, null]);
  });

  // What is stored is the key and a digest of the request: the destination URL of a link is not kept in the key's row.
  it('stores the key and a digest of the body, not the body', async () => {
    const account = await createAccount(a);
    await a.request('POST', '/user/tag', { token: account.accessToken, body: { name: 'private-name' }, headers: { [KEY]: 'digest' } });
    const { rows } = await sql<Record<string, unknown>>(a.dataSource, 'SELECT key, fingerprint FROM idempotency_keys WHERE owner_id = $1', [
      account.id,
    ]);
    expect(rows).toEqual([{ key: 'digest', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });

  it('refuses a key that is empty, longer than 255 characters or not printable ASCII with 400, and makes nothing', async () => {
    const account = await createAccount(a);
    for (const key of ['', 'x'.repeat(256), 'clé']) {
      const res = await a.request('POST', '/user/link', {
        token: account.accessToken,
        body: { url: 'https://example.com/bad-key' },
        headers: { [KEY]: key },
      });
      expect([res.status, res.body.meta?.errors?.[0]?.name]).toEqual([400, 'Idempotency-Key']);
    }
    expect(
      (
        await a.request('POST', '/user/link', {
          token: account.accessToken,
          body: { url: 'https://example.com/ok-key' },
          headers: { [KEY]: 'x'.repeat(255) },
        })
      ).status,
    ).toBe(200);
    expect((await linksOf(a, account)).meta.total).toBe(1);
  });

  // A leaked token lacking the route's scope learns nothing from a key: the scope is checked before it.
  it('checks the scope before the key: a token without links:write gets 403, not the kept answer', async () => {
    const account = await createAccount(a);
    const body = { url: 'https://example.com/scoped' };
    await a.request('POST', '/user/link', { token: account.accessToken, body, headers: { [KEY]: 'scoped' } });
    const narrow = await createPat(a, account, ['links:read']);
    const res = await a.request('POST', '/user/link', { token: narrow.token, body, headers: { [KEY]: 'scoped' } });
    expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('replays a bulk creation and a CSV import, creating their links once', async () => {
    const account = await createAccount(a);
    const bulk = { links: [{ url: 'https://example.com/b1' }, { url: 'https://example.com/b2' }] };
    const first = await a.request('POST', '/user/link/bulk', { token: account.accessToken, body: bulk, headers: { [KEY]: 'bulk' } });
    const again = await b.request('POST', '/user/link/bulk', { token: account.accessToken, body: bulk, headers: { [KEY]: 'bulk' } });
    expect(again.body).toEqual(first.body);
    const csv = { body: 'url,slug\nhttps://example.com/c1,csv-one\n', contentType: 'text/csv' };
    const imported = await a.request('POST', '/user/link/import', { token: account.accessToken, raw: csv, headers: { [KEY]: 'csv' } });
    const reimported = await b.request('POST', '/user/link/import', { token: account.accessToken, raw: csv, headers: { [KEY]: 'csv' } });
    expectReplayOf(reimported, imported);
    const otherCsv = await a.request('POST', '/user/link/import', {
      token: account.accessToken,
      raw: { ...csv, body: `${csv.body}https://example.com/c2,csv-two\n` },
      headers: { [KEY]: 'csv' },
    });
    expect(otherCsv.status).toBe(422);
    expect((await linksOf(a, account)).meta.total).toBe(3);
  });

  // Keys live 24 hours: an old one is a new request; the sweep deletes expired rows in a bounded batch.
  it('runs a request again once its key is older than 24 hours, and sweeps expired keys', async () => {
    const account = await createAccount(a);
    const body = { url: 'https://example.com/day' };
    const first = await a.request('POST', '/user/link', { token: account.accessToken, body, headers: { [KEY]: 'day' } });
    await sql(a.dataSource, "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE owner_id = $1", [account.id]);
    const later = await b.request('POST', '/user/link', { token: account.accessToken, body, headers: { [KEY]: 'day' } });
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.data.id).not.toBe(first.body.data.id);
    await sql(a.dataSource, "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE owner_id = $1", [account.id]);
    expect(await a.app.get(IdempotencyKeySweeper).sweep()).toBeGreaterThanOrEqual(1);
    expect((await sql(a.dataSource, 'SELECT 1 FROM idempotency_keys WHERE owner_id = $1', [account.id])).rows).toEqual([]);
  });
});

class FlakyBody {
  @IsString() name!: string;
}

/** Fails (a fault, 500) on its first call of each name and succeeds after: a first attempt that failed must not be replayed. */
@Controller('flaky')
class FlakyController {
  readonly calls = new Map<string, number>();

  @Route('POST', '', {
    operationId: 'flakyCreate',
    scope: 'links:write',
    answers: object({ name: string, call: string }),
    idempotent: 'replays',
    summary: 'Flaky',
    description: 'Fails once per name.',
  })
  create(@CurrentPrincipal() _caller: Caller, @Body() body: FlakyBody) {
    const call = (this.calls.get(body.name) ?? 0) + 1;
    this.calls.set(body.name, call);
    if (call === 1) throw new Error('a fault of the first attempt');
    return ok({ name: body.name, call: String(call) });
  }
}

/** Answers only once the test lets it (`gate`): a first request held while a second one with its key comes. */
let gate: { open: () => void; opened: Promise<void> } | null = null;
const newGate = () => {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
};

@Controller('held')
class HeldController {
  calls = 0;

  @Route('POST', '', {
    operationId: 'heldCreate',
    scope: 'links:write',
    answers: object({ name: string, call: string }),
    idempotent: 'replays',
    summary: 'Held',
    description: 'Answers when the test opens its gate.',
  })
  async create(@CurrentPrincipal() _caller: Caller, @Body() body: FlakyBody) {
    this.calls += 1;
    await gate?.opened;
    return ok({ name: body.name, call: String(this.calls) });
  }
}

describe('Idempotency-Key while the first request runs, and after a failed one', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ controllers: [FlakyController, HeldController] })));
  afterAll(() => t.close());

  // A fault is not the answer to keep: the retry with the key must run (else the client could never succeed with it).
  it('releases the key of a first attempt that failed with a 5xx: the retry runs, and its answer is the one replayed', async () => {
    const account = await createAccount(t);
    const send = () => t.request('POST', '/flaky', { token: account.accessToken, body: { name: 'n' }, headers: { [KEY]: 'flaky' } });
    expect((await send()).status).toBe(500);
    const retry = await send();
    expect([retry.status, retry.body.data]).toEqual([200, { name: 'n', call: '2' }]);
    const replay = await send();
    expect([replay.headers.get('idempotent-replayed'), replay.body.data]).toEqual(['true', { name: 'n', call: '2' }]);
  });

  // Two requests with one key at once never both run: the second is told to wait, then gets the first's answer.
  it('answers 409 IDEMPOTENCY_KEY_IN_USE to a request whose key is held by one still running, which runs once', async () => {
    const account = await createAccount(t);
    const send = () => t.request('POST', '/held', { token: account.accessToken, body: { name: 'h' }, headers: { [KEY]: 'held' } });
    gate = newGate();
    const first = send();
    const held = t.app.get(HeldController);
    while (held.calls === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await send();
    expect([second.status, second.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    gate.open();
    expect((await first).body.data).toEqual({ name: 'h', call: '1' });
    const third = await send();
    expect([third.headers.get('idempotent-replayed'), third.body.data]).toEqual(['true', { name: 'h', call: '1' }]);
    expect(held.calls).toBe(1);
    gate = null;
  });
});
