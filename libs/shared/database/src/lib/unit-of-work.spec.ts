import type { DataSource, EntityManager } from 'typeorm';
import { managerOf, TypeormUnitOfWork, whenTransactionEnds } from './unit-of-work';

/** A DataSource stand-in: each transaction gets its own manager, released when the test says. */
function fakeDataSource() {
  const base = { name: 'base' } as unknown as EntityManager;
  let next = 0;
  const dataSource = {
    manager: base,
    transaction: async <T>(work: (manager: EntityManager) => Promise<T>) => work({ name: `tx${++next}` } as unknown as EntityManager),
  } as unknown as DataSource;
  return { dataSource, base };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('TypeormUnitOfWork', () => {
  it(
    'gives each concurrent transaction its own manager through every await, and none once ' +
      'they are over (writes outside a transaction landing in one defended)',
    async () => {
      const { dataSource, base } = fakeDataSource();
      const unitOfWork = new TypeormUnitOfWork(dataSource);
      const seen: string[] = [];
      const name = () => (managerOf(dataSource) as unknown as { name: string }).name;
      const work = (label: string) => async () => {
        seen.push(`${label}:${name()}`);
        await tick();
        seen.push(`${label}:${name()}`);
        await unitOfWork.run(async () => seen.push(`${label} nested:${name()}`));
      };
      const first = unitOfWork.run(work('a'));
      const second = unitOfWork.run(work('b'));
      expect(name()).toBe('base');
      await first;
      // The other transaction is still under way: it keeps its manager after the first one ended.
      await second;
      expect(seen.sort()).toEqual(['a nested:tx1', 'a:tx1', 'a:tx1', 'b nested:tx2', 'b:tx2', 'b:tx2']);
      expect(managerOf(dataSource)).toBe(base);
      // Switched off between transactions, and on again for the next one.
      await unitOfWork.run(async () => {
        await tick();
        expect(name()).toBe('tx3');
      });
      expect(managerOf(dataSource)).toBe(base);
    },
  );

  it('ends the transaction count when the work fails, so the next one still gets its manager', async () => {
    const { dataSource } = fakeDataSource();
    const unitOfWork = new TypeormUnitOfWork(dataSource);
    await expect(unitOfWork.run(async () => Promise.reject(new Error('rolled back')))).rejects.toThrow('rolled back');
    await unitOfWork.run(async () => {
      await tick();
      expect((managerOf(dataSource) as unknown as { name: string }).name).toBe('tx2');
    });
  });

  // A cache evicted before the COMMIT could be filled again with the old row by a read in between, and keep
  // it: the eviction of a change made in a transaction waits for the transaction's end.
  it('runs what waits for the end of a transaction once it has ended, committed or not, and at once outside one', async () => {
    const { dataSource } = fakeDataSource();
    const unitOfWork = new TypeormUnitOfWork(dataSource);
    const events: string[] = [];
    whenTransactionEnds(() => events.push('outside'));
    expect(events).toEqual(['outside']);
    await unitOfWork.run(async () => {
      whenTransactionEnds(() => events.push('first'));
      await tick();
      await unitOfWork.run(async () => whenTransactionEnds(() => events.push('nested')));
      events.push('work done');
    });
    expect(events).toEqual(['outside', 'work done', 'first', 'nested']);
    await expect(
      unitOfWork.run(async () => {
        whenTransactionEnds(() => events.push('rolled back'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(events).toEqual(['outside', 'work done', 'first', 'nested', 'rolled back']);
  });
});
