import type { RecheckResult } from '@lnk/domains/domain';
import { DomainRechecker } from './domain-rechecker';

describe('DomainRechecker', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const rechecker = (seconds: number, execute: (options: { minAgeMs?: number }) => Promise<RecheckResult>) =>
    new DomainRechecker({ domains: { recheck: { execute } } } as never, { domainRecheckSeconds: seconds });

  it('re-checks verified domains every interval, those not checked for half of it, until shutdown', async () => {
    const calls: { minAgeMs?: number }[] = [];
    const scheduler = rechecker(60, async (options) => (calls.push(options), { checked: 0, lost: 0 }));
    scheduler.onModuleInit();
    await jest.advanceTimersByTimeAsync(59_000);
    expect(calls).toEqual([]);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual([{ minAgeMs: 30_000 }]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(2);
    await scheduler.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(calls).toHaveLength(2);
  });

  it('starts no run while one is still going, and none at all with an interval of 0', async () => {
    let runs = 0;
    let finish: () => void = () => undefined;
    const slow = rechecker(10, () => (runs++, new Promise<RecheckResult>((resolve) => (finish = () => resolve({ checked: 1, lost: 0 })))));
    slow.onModuleInit();
    await jest.advanceTimersByTimeAsync(35_000);
    expect(runs).toBe(1);
    finish();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(2);
    finish();
    await slow.beforeApplicationShutdown();

    const off = rechecker(0, async () => (runs++, { checked: 0, lost: 0 }));
    off.onModuleInit();
    await jest.advanceTimersByTimeAsync(86_400_000);
    expect(runs).toBe(2);
  });
});
