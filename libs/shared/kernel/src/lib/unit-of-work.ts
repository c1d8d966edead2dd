/** Runs work in one database transaction: all of its writes happen, or none. */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
