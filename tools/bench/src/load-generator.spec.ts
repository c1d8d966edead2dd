import { clicksDroppedInMetrics, median, parseWrkResult, redirectsInMetrics, seededRandom, wrkScript, zipfRanks } from './load-generator';

describe('zipfRanks (the request mix of the 10,000-link benchmark)', () => {
  it('draws ranks within 1..count, as many as asked', () => {
    const ranks = zipfRanks(10_000, 50_000);
    expect(ranks).toHaveLength(50_000);
    expect(Math.min(...ranks)).toBe(1);
    expect(Math.max(...ranks)).toBeLessThanOrEqual(10_000);
    expect(ranks.every(Number.isInteger)).toBe(true);
  });

  it('gives rank r a share near 1/(r·H(n)): the head is popular, the tail is still reached', () => {
    const n = 10_000;
    const samples = 200_000;
    const ranks = zipfRanks(n, samples);
    const harmonic = Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
    const share = (rank: number) => ranks.filter((r) => r === rank).length / samples;
    // Rank 1 takes ~10.2% of 10,000 links' requests, rank 2 half of it, rank 10 a tenth.
    expect(share(1)).toBeCloseTo(1 / harmonic, 2);
    expect(share(2)).toBeCloseTo(1 / (2 * harmonic), 2);
    expect(share(10)).toBeCloseTo(1 / (10 * harmonic), 2);
    // The last half of the links together: ln(2)/H(n) ≈ 7%, not nothing.
    expect(ranks.filter((r) => r > n / 2).length / samples).toBeCloseTo(Math.log(2) / harmonic, 2);
  });

  it('is the same mix for the same seed, so every run measures the same requests', () => {
    expect(zipfRanks(1000, 500, { random: seededRandom(7) })).toEqual(zipfRanks(1000, 500, { random: seededRandom(7) }));
    expect(zipfRanks(1000, 500, { random: seededRandom(7) })).not.toEqual(zipfRanks(1000, 500, { random: seededRandom(8) }));
  });

  it('with s = 0 is uniform', () => {
    const ranks = zipfRanks(4, 40_000, { s: 0 });
    for (let rank = 1; rank <= 4; rank++) expect(ranks.filter((r) => r === rank).length / 40_000).toBeCloseTo(0.25, 1);
  });

  it('refuses an empty set of links', () => {
    expect(() => zipfRanks(0, 10)).toThrow();
  });
});

describe('parseWrkResult (the figures of a wrk run)', () => {
  const line =
    'WRK_RESULT {"requests":240000,"durationUs":8000000,"errors":{"connect":0,"read":2,"write":0,' +
    '"status":5,"timeout":1},"latencyUs":{"p50":1800,"p90":2500,"p99":4210,"max":30001}}';

  it('reads requests/s, percentiles in ms, other statuses and socket errors from the line the Lua done() prints', () => {
    const stdout = `Running 8s test @ http://127.0.0.1:3000/hot\n  2 threads and 64 connections\n${line}\n`;
    expect(parseWrkResult(stdout)).toEqual({
      requests: 240_000,
      otherStatuses: 5,
      errors: 3,
      seconds: 8,
      requestsPerSecond: 30_000,
      p50Ms: 1.8,
      p90Ms: 2.5,
      p99Ms: 4.21,
      maxMs: 30,
    });
  });

  it('fails loudly when wrk printed no result (a script error), rather than reporting zeros', () => {
    expect(() => parseWrkResult('PANIC: unprotected error in call to Lua API\n')).toThrow(/no result line/);
  });
});

describe('wrkScript', () => {
  it('defines request() only for the mixes of many links (a static request keeps wrk fastest for one link)', () => {
    expect(wrkScript('single')).not.toMatch(/^request = function/m);
    expect(wrkScript('table')).toMatch(/^request = function/m);
    expect(wrkScript('uniform')).toMatch(/^request = function/m);
  });

  it('seeds each thread apart, so the two threads do not request the same slugs in step', () => {
    expect(wrkScript('uniform')).toMatch(/math\.randomseed\(.*id/);
    expect(wrkScript('uniform')).toContain('thread:set("id"');
  });

  it('prints the result line parseWrkResult reads', () => {
    expect(wrkScript('single')).toContain("io.write(string.format('WRK_RESULT {");
  });
});

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe("redirectsInMetrics (the server's own count, which the clicks written must equal exactly)", () => {
  const metrics = [
    '# HELP lnk_redirects_total Short-URL requests, by outcome',
    '# TYPE lnk_redirects_total counter',
    'lnk_redirects_total{outcome="not_found"} 3',
    'lnk_redirects_total{outcome="redirect"} 627419',
    'lnk_redirects_total{outcome="password_page"} 0',
  ].join('\n');

  it('reads the redirect outcome, not another outcome of the same counter', () => {
    expect(redirectsInMetrics(metrics)).toBe(627_419);
  });

  it('reads other labels beside the outcome, and exponent notation', () => {
    expect(redirectsInMetrics('lnk_redirects_total{instance="a",outcome="redirect"} 1.5e+6\n')).toBe(1_500_000);
  });

  it("is null when the counter is missing (then only the load generator's tally is compared)", () => {
    expect(redirectsInMetrics('lnk_other_total 5\n')).toBeNull();
  });
});

describe('clicksDroppedInMetrics', () => {
  it('reads the clicks a full buffer refused, which explain a shortfall of clicks written', () => {
    expect(clicksDroppedInMetrics('# TYPE lnk_clicks_dropped_total counter\nlnk_clicks_dropped_total 42\n')).toBe(42);
    expect(clicksDroppedInMetrics('lnk_clicks_written_total 5\n')).toBeNull();
  });
});
