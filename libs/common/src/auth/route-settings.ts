import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

const metadata = new Reflector();
/** controller class → handler → metadata key → value (undefined included) */
const settings = new WeakMap<object, WeakMap<object, Map<string, unknown>>>();

/**
 * A route's setting (a `SetMetadata` key on its handler, else on its controller: Nest's
 * `Reflector.getAllAndOverride`), read once per controller, handler and key and then kept: the
 * decorators are applied when the classes are defined, so the answer never changes, and the
 * guards ask on every request. Keyed by the controller too, since one handler (an inherited
 * method) may serve controllers with different class-level settings.
 */
export function routeSetting<T>(context: ExecutionContext, key: string): T | undefined {
  const controller = context.getClass();
  const handler = context.getHandler();
  let byHandler = settings.get(controller);
  if (!byHandler) settings.set(controller, (byHandler = new WeakMap()));
  let byKey = byHandler.get(handler);
  if (!byKey) byHandler.set(handler, (byKey = new Map()));
  if (byKey.has(key)) return byKey.get(key) as T | undefined;
  const value = metadata.getAllAndOverride<T | undefined>(key, [handler, controller]);
  byKey.set(key, value);
  return value;
}
