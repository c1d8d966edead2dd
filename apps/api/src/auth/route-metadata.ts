import type { ExecutionContext } from '@nestjs/common';

type Target = (...args: never[]) => unknown;

/**
 * What a guard reads from a route's decorators, read once per handler (and controller class) and kept:
 * Nest's Reflector walks reflect-metadata's maps on every call, several lookups per guard per request.
 * The decorators are applied when the classes are defined, so what they say never changes afterwards.
 */
export function perRoute<T>(read: (handler: Target, controller: Target) => T): (context: ExecutionContext) => T {
  const known = new WeakMap<Target, WeakMap<Target, T>>();
  return (context) => {
    const handler = context.getHandler() as Target;
    const controller = context.getClass() as unknown as Target;
    let byController = known.get(handler);
    if (!byController) known.set(handler, (byController = new WeakMap()));
    if (byController.has(controller)) return byController.get(controller) as T;
    const value = read(handler, controller);
    byController.set(controller, value);
    return value;
  };
}
