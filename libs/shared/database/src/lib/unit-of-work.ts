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
    return this.dataSource.transaction((manager) => current.run(manager, work));
  }
}
