import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '@lnk/shared/kernel';
import { BoundedClient, QueryBounds } from './query-bounds';

const current = new AsyncLocalStorage<EntityManager>();

/**
 * The manager repositories must use: the open transaction's, when the call runs inside
 * `TypeormUnitOfWork.run`, else the DataSource's own.
 */
export function managerOf(dataSource: DataSource): EntityManager {
  return current.getStore() ?? dataSource.manager;
}

/**
 * `bounds`: a role's own query bounds for its transactions (the click writer's), instead of the pool's;
 * on a PostgreSQL server only (the embedded database has none).
 */
export class TypeormUnitOfWork extends UnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly bounds: QueryBounds | null = null,
  ) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (current.getStore()) return work();
    open++;
    const bounds = this.bounds;
    let manager: EntityManager | undefined;
    const transaction = (opened: EntityManager) => {
      manager = opened;
      return bounds ? withBounds(opened, bounds, () => current.run(opened, work)) : current.run(opened, work);
    };
    return this.dataSource.transaction(transaction).finally(() => {
      closed();
      if (manager) ended(manager);
    });
  }
}

/** The transaction's statements get the role's timeouts (SET LOCAL: they end with it), its connection the role's read timeout. */
async function withBounds<T>(manager: EntityManager, bounds: QueryBounds, work: () => Promise<T>): Promise<T> {
  // The transaction's runner is connected already: connect() (public) answers its driver connection.
  const connection: unknown = await manager.queryRunner?.connect();
  if (!(connection instanceof BoundedClient)) return work();
  const restore = connection.withReadTimeout(bounds.readTimeoutMs);
  try {
    await manager.query("SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $2, true)", [
      `${bounds.statementTimeoutMs}`,
      `${bounds.lockTimeoutMs}`,
    ]);
    return await work();
  } finally {
    // Before the connection goes back to the pool (the COMMIT runs under the pool's bound).
    restore();
  }
}

/** What to run once a transaction has ended, by its manager (whenTransactionEnds). */
const onEnd = new WeakMap<EntityManager, (() => void)[]>();

/**
 * Runs `then` once the surrounding transaction has ended, committed or rolled back, or at once outside
 * one: for what must follow a change others can see (evicting a cache of the changed row), which a cache
 * filled between an eviction and the COMMIT would otherwise undo. After a rollback, or a COMMIT whose
 * outcome is unknown (the connection lost), it runs too: evicting an unchanged row costs one read.
 */
export function whenTransactionEnds(then: () => void): void {
  const manager = current.getStore();
  if (!manager) return then();
  const list = onEnd.get(manager);
  if (list) list.push(then);
  else onEnd.set(manager, [then]);
}

function ended(manager: EntityManager): void {
  const list = onEnd.get(manager);
  if (!list) return;
  onEnd.delete(manager);
  for (const then of list) then();
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
