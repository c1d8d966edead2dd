import type { FactoryProvider } from '@nestjs/common';

/** A class or an abstract class (a port): Nest injects by it, the class being both the type and the token. */
export type Token<T = unknown> = abstract new (...args: never[]) => T;

/** What each token of `D` injects. */
export type Injected<D extends readonly Token[]> = { -readonly [K in keyof D]: D[K] extends Token<infer T> ? T : never };

/**
 * A provider of `provide`, made by `build` from what `inject` names, each by its class. Nest's own
 * `inject` is a list the factory's parameters are not checked against; here they are typed from it, so a
 * dependency missing, extra or out of order does not compile. Without `build`, `provide`'s constructor
 * takes them in that order. `provide` may be a module's own string token, for what has no class (a
 * domain's interface).
 */
export function providerOf<T, const D extends readonly Token[]>(provide: Token<T> | string, inject: D, build: (...deps: Injected<D>) => T): FactoryProvider<T>;
export function providerOf<T, const D extends readonly Token[]>(provide: new (...deps: Injected<D>) => T, inject: D): FactoryProvider<T>;
export function providerOf<T>(provide: Token<T> | string, inject: readonly Token[], build?: (...deps: never[]) => T): FactoryProvider<T> {
  const construct = (...deps: never[]) => new (provide as new (...args: never[]) => T)(...deps);
  return { provide, inject: [...inject], useFactory: (build ?? construct) as (...deps: unknown[]) => T };
}
