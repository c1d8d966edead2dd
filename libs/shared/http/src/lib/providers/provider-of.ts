import type { FactoryProvider } from '@nestjs/common';

/** A class or an abstract class (a port): Nest injects by it, the class being both the type and the token. */
export type Token<T = unknown> = abstract new (...args: never[]) => T;

/** What each token of `D` injects. */
export type Injected<D extends readonly Token[]> = { -readonly [K in keyof D]: D[K] extends Token<infer T> ? T : never };

/** What each token of the named `P` injects, under the same names. */
export type InjectedParts<P extends Record<string, Token>> = { -readonly [K in keyof P]: P[K] extends Token<infer T> ? T : never };

/**
 * A provider of `provide`, made by `build` from what `inject` names, each by its class. Nest's own
 * `inject` is a list the factory's parameters are not checked against; here they are typed from it, so a
 * dependency missing, extra or out of order does not compile. Without `build`, `provide`'s constructor
 * takes them in that order; given a record of tokens instead of a list, its constructor takes one object
 * with what each injects under its name (a class of more than four collaborators). `provide` may be a
 * module's own string token, for what has no class (a domain's interface).
 */
export function providerOf<T, const D extends readonly Token[]>(
  provide: Token<T> | string,
  inject: D,
  build: (...deps: Injected<D>) => T,
): FactoryProvider<T>;
export function providerOf<T, const D extends readonly Token[]>(provide: new (...deps: Injected<D>) => T, inject: D): FactoryProvider<T>;
export function providerOf<T, const P extends Record<string, Token>>(
  provide: new (parts: InjectedParts<P>) => T,
  parts: P,
): FactoryProvider<T>;
export function providerOf<T>(
  provide: Token<T> | string,
  inject: readonly Token[] | Record<string, Token>,
  build?: (...deps: never[]) => T,
): FactoryProvider<T> {
  const make = provide as new (...args: unknown[]) => T;
  if (!Array.isArray(inject)) {
    const names = Object.keys(inject);
    const named = (...deps: unknown[]) => new make(Object.fromEntries(names.map((name, i) => [name, deps[i]])));
    return { provide, inject: Object.values(inject), useFactory: named };
  }
  const construct = (...deps: unknown[]) => new make(...deps);
  return { provide, inject: [...inject], useFactory: (build ?? construct) as (...deps: unknown[]) => T };
}
