import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '@lnk/shared/kernel';

const current = new AsyncLocalStorage<EntityManager>();

/**
 * The manager repositories must use: the open transaction's, when the call runs inside
 * `TypeormUnitOfWork.run`, else the DataSource's own.
 */
export function managerOf(dataSource: DataSource): EntityManager {
  return current.getStore() ?? dataSource.manager;
}

export class TypeormUnitOfWork extends UnitOfWork {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (current.getStore()) return work();
    open++;
    return this.dataSource.transaction((manager) => current.run(manager, work)).finally(closed);
  }
}

/** Transactions under way (in any unit of work of this process). */
let open = 0;

/**
 * The storage is switched off again when no transaction is under way. On this Node, an enabled
 * AsyncLocalStorage keeps an async hook that runs for every promise, tick and socket write of the process
 * (a CPU profile of the redirect hot path showed it: 1.5-2% of the time in its init callbacks once the
 * first batch of clicks had been written); the next run() switches it on again.
 */
function closed(): void {
  if (--open === 0) current.disable();
}
