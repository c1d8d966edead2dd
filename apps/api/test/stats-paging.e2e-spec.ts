import { request as httpRequest } from 'node:http';
import { TypeormStatsRepository } from '@lnk/analytics/adapter-typeorm';
import type { StatsQuery, StatsRecord } from '@lnk/analytics/domain';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';

interface Record {
  id: string;
  userId: string;
  date: string;
  linkName: string;
  utmSource: string;
}

// Issue 17 part 4: a year of a large account was one array built in memory. Paged with start/limit, or
// streamed whole in the envelope it always had.
describe('GET /user/stats at any size: paged, or streamed whole', () => {
  let t: TestApp;
  let ada: TestAccount;
  let bob: TestAccount;
  const range = 'startDate=2026-03-01&endDate=2026-03-31';

  /** `links` links with a row a day over March and a few days around it; every fifth one with UTM rows too, two links named alike. */
  const seed = async (ownerId: string, links: number, prefix: string) => {
    const id = (n: string) => `lpad(to_hex(${n}), 24, '0')`;
    await t.dataSource.query(
      `INSERT INTO link_daily_stats (id, date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign,
        visits, password_passed, password_failed)
       SELECT md5(random()::text || g || d || u)::char(24), DATE '2026-02-27' + d, ${id(`'${prefix}'::int * 100000 + g`)}, $1, NULL,
              CASE WHEN g <= 2 THEN 'Twin' ELSE 'Link ' || g END, 'lnk.test', u, CASE WHEN u = '' THEN '' ELSE 'mail'
                END, '', 1 + (g * 7 + d) % 13, 0, d % 2
         FROM generate_series(1, $2::int) AS g CROSS JOIN generate_series(0, 35) AS d
         CROSS JOIN LATERAL (SELECT unnest(CASE WHEN g % 5 = 0 THEN ARRAY['', 'news', 'Ads'] ELSE ARRAY[''] END) AS u) AS utm`,
      [ownerId, links],
    );
  };

  /** `links` links with one plain row a day over the same days as `seed`, no UTM rows. */
  const seedMany = async (ownerId: string, links: number, prefix: string) => {
    await t.dataSource.query(
      `INSERT INTO link_daily_stats (id, date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign,
        visits, password_passed, password_failed)
       SELECT md5(random()::text || g || d)::char(24), DATE '2026-02-27' + d, lpad(to_hex($3::int * 100000 + g), 24, '0'), $1, NULL,
         'Link ' || g, 'lnk.test', '', '', '', 1 + (g + d) % 11, 0, 0
         FROM generate_series(1, $2::int) AS g CROSS JOIN generate_series(0, 35) AS d`,
      [ownerId, links, Number(prefix)],
    );
  };

  beforeAll(async () => {
    t = await startTestApp();
    ada = await createAccount(t);
    bob = await createAccount(t);
    await seed(ada.id, 40, '1');
    await seed(bob.id, 3, '2');
  });
  afterAll(() => t?.close());
  afterEach(() => jest.restoreAllMocks());

  const stats = (account: TestAccount, query: string) => t.request('GET', `/user/stats?${query}`, { token: account.accessToken });
  // 40 links x 31 days, 8 of them with two UTM rows more a day; the days around March are not in the range.
  const adaTotal = (40 + 8 * 2) * 31;

  it('streams every record of the range in the envelope it always had, byte for byte, more than one batch of them', async () => {
    const res = await stats(ada, range);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = res.body as { data: Record[]; meta: { total: number } };
    expect(body.meta).toEqual({ total: adaTotal });
    expect(body.data).toHaveLength(adaTotal);
    expect(res.text).toBe(
      JSON.stringify({ status: 200, code: 'OK', message: 'Request successful', data: body.data, meta: { total: adaTotal } }),
    );
    expect(new Set(body.data.map((r) => r.id)).size).toBe(adaTotal);
    expect(body.data.every((r) => r.userId === ada.id && r.date >= '2026-03-01' && r.date < '2026-04-01')).toBe(true);
  });

  it('answers HEAD with the headers of the streamed answer and no body', async () => {
    const res = await fetch(`${t.baseUrl}/user/stats?${range}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${ada.accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.text()).toBe('');
    expect((await stats(ada, `${range}&limit=1`)).status).toBe(200);
  });

  it(
    'pages in the order of the whole answer (date, link name, UTM values, ' + 'id): every record once, each page with the full total',
    async () => {
      const whole = (await stats(ada, range)).body.data as Record[];
      const paged: Record[] = [];
      for (let start = 0; start < adaTotal; start += 100) {
        const res = await stats(ada, `${range}&start=${start}&limit=100`);
        expect(res.status).toBe(200);
        expect(res.body.meta).toEqual({
          total: adaTotal,
          start,
          limit: 100,
          nextCursor: start + 100 < adaTotal ? expect.any(String) : null,
        });
        paged.push(...res.body.data);
      }
      expect(paged.map((r) => r.id)).toEqual(whole.map((r) => r.id));
      expect(whole.map((r) => r.date)).toEqual(whole.map((r) => r.date).sort());
      // Two links named alike tie on every key but the id.
      const twins = whole.filter((r) => r.date === '2026-03-01T00:00:00.000Z' && r.linkName === 'Twin');
      expect(twins.map((r) => r.id)).toEqual(twins.map((r) => r.id).sort());
    },
  );

  it('answers a page past the end empty, with the total; limit alone starts at 0, start alone takes 10', async () => {
    expect((await stats(ada, `${range}&start=${adaTotal}&limit=5`)).body).toMatchObject({
      data: [],
      meta: { total: adaTotal, start: adaTotal, limit: 5, nextCursor: null },
    });
    expect((await stats(ada, `${range}&limit=3`)).body.meta).toEqual({
      total: adaTotal,
      start: 0,
      limit: 3,
      nextCursor: expect.any(String),
    });
    const startOnly = await stats(ada, `${range}&start=7`);
    expect(startOnly.body.meta).toEqual({ total: adaTotal, start: 7, limit: 10, nextCursor: expect.any(String) });
    expect(startOnly.body.data).toHaveLength(10);
  });

  it('pages and streams searched records (q) alike', async () => {
    const whole = await stats(ada, `${range}&q=twin`);
    expect(whole.body.meta.total).toBe(2 * 31);
    const page = await stats(ada, `${range}&q=twin&start=60&limit=100`);
    expect(page.body.meta).toEqual({ total: 62, start: 60, limit: 100, nextCursor: null });
    expect(page.body.data.map((r: Record) => r.id)).toEqual(whole.body.data.slice(60).map((r: Record) => r.id));
  });

  it('never shows another account’s records, paged or streamed', async () => {
    const bobs = await stats(bob, range);
    expect(bobs.body.meta.total).toBe(3 * 31);
    expect(bobs.body.data.every((r: Record) => r.userId === bob.id)).toBe(true);
    const page = await stats(bob, `${range}&start=0&limit=100`);
    expect(page.body.data.map((r: Record) => r.id)).toEqual(bobs.body.data.map((r: Record) => r.id));
    const adas = new Set(((await stats(ada, range)).body.data as Record[]).map((r) => r.id));
    expect(bobs.body.data.some((r: Record) => adas.has(r.id))).toBe(false);
  });

  it.each([
    ['start=-1', ['start']],
    ['limit=0', ['limit']],
    ['limit=101', ['limit']],
    ['start=abc&limit=1.5', ['start', 'limit']],
  ])('refuses %s with VALIDATION_ERROR on %j', async (paging, fields) => {
    const res = await stats(ada, `${range}&${paging}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(res.body.meta.errors.map((e: { name: string }) => e.name).sort()).toEqual([...fields].sort());
  });

  // A client that asks for a large range and stops reading must not make the server read (and hold)
  // the rest of it: a reader that stalls on purpose would otherwise cost the server the whole answer's
  // memory per request. Batches are read only as the socket takes what the last one became.
  it('reads no further than the socket takes when the client stops reading, and sends every record once it reads again', async () => {
    const carol = await createAccount(t);
    // 3,000 links, 17 days of the range: 51,000 records (about 15 MB, 51 batches of 1,000), several times
    // what the kernel's socket buffers take (tcp_wmem's 4 MB at most) before the client reads.
    await seedMany(carol.id, 3000, '3');
    const week = 'startDate=2026-03-01&endDate=2026-03-17';
    const read = TypeormStatsRepository.prototype.batches;
    let batchesRead = 0;
    jest.spyOn(TypeormStatsRepository.prototype, 'batches').mockImplementation(async function* (
      this: TypeormStatsRepository,
      query: StatsQuery,
      size: number,
    ) {
      for await (const batch of read.call(this, query, size) as AsyncIterable<StatsRecord[]>) {
        batchesRead++;
        yield batch;
      }
    });
    const { readWhileStalled, body } = await new Promise<{ readWhileStalled: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${t.baseUrl}/user/stats?${week}`, { headers: { authorization: `Bearer ${carol.accessToken}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.once('data', (chunk: Buffer) => {
          chunks.push(chunk);
          res.pause();
          // Stalled long enough for an unthrottled server to read every batch many times over.
          setTimeout(() => {
            const readWhileStalled = batchesRead;
            res.on('data', (more: Buffer) => chunks.push(more));
            res.on('end', () => resolve({ readWhileStalled, body: Buffer.concat(chunks).toString('utf8') }));
            res.resume();
          }, 1500);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    const total = 3000 * 17;
    expect(batchesRead).toBe(Math.ceil(total / 1000));
    expect(readWhileStalled).toBeLessThan(batchesRead / 2);
    const parsed = JSON.parse(body) as { data: Record[]; meta: { total: number } };
    expect(parsed.meta).toEqual({ total });
    expect(new Set(parsed.data.map((r) => r.id)).size).toBe(total);
  });

  it('answers a failure before the first record as a 500 envelope', async () => {
    jest.spyOn(TypeormStatsRepository.prototype, 'batches').mockImplementation(() => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('the first read failed')) }),
    }));
    const res = await stats(ada, range);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  // A database error after the status and the first records went out: the answer must not end as a
  // well-formed, shorter list, so the connection is cut.
  it('cuts the connection when the database fails mid-stream, so no complete-looking body arrives', async () => {
    const read = TypeormStatsRepository.prototype.batches;
    jest.spyOn(TypeormStatsRepository.prototype, 'batches').mockImplementation(async function* (
      this: TypeormStatsRepository,
      query: StatsQuery,
      size: number,
    ) {
      for await (const batch of read.call(this, query, size) as AsyncIterable<StatsRecord[]>) {
        yield batch;
        throw new Error('connection terminated unexpectedly');
      }
    });
    const { status, received, failure } = await new Promise<{ status: number; received: string; failure?: string }>((resolve) => {
      const req = httpRequest(`${t.baseUrl}/user/stats?${range}`, { headers: { authorization: `Bearer ${ada.accessToken}` } }, (res) => {
        let received = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (received += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, received }));
        res.on('error', (error) => resolve({ status: res.statusCode ?? 0, received, failure: error.message }));
      });
      req.on('error', (error) => resolve({ status: 0, received: '', failure: error.message }));
      req.end();
    });
    expect(status).toBe(200);
    expect(failure).toBe('aborted');
    expect(received.startsWith('{"status":200,"code":"OK","message":"Request successful","data":[{')).toBe(true);
    expect(() => JSON.parse(received)).toThrow();
    // The app answers the next request as usual.
    jest.restoreAllMocks();
    expect((await stats(ada, `${range}&limit=1`)).status).toBe(200);
  });
});
