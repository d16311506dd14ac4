import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import type { TestApp } from './test-app';

/** One route handler of the running application. */
export interface AppRoute {
  /** the Nest module that declares the controller, e.g. `AppApiModule` */
  module: string;
  /** `Controller.handler` */
  name: string;
  verb: string;
  /** the controller's and the handler's path, joined (without the module's base path) */
  path: string;
  /**
   * Every path the handler answers (controller and handler paths may be lists, e.g. `…/issues`
   * and `…/work-items`), each joined like `path`.
   */
  paths: string[];
  /** a metadata value of the handler, else of its controller */
  meta(key: string): unknown;
}

/** Every handler of every controller of the application, as Nest registered them. */
export function collectRoutes(t: TestApp): AppRoute[] {
  const routes: AppRoute[] = [];
  for (const moduleRef of t.app.get(ModulesContainer).values()) {
    for (const wrapper of moduleRef.controllers.values()) {
      const controller = wrapper.metatype as new (...args: never[]) => object;
      const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
      // the handlers of the controller and of the classes it extends (Nest routes inherited handlers)
      const names = new Set<string>();
      for (let proto = controller.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto))
        for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
      for (const name of names) {
        const handler = controller.prototype[name as keyof object] as unknown;
        if (typeof handler !== 'function' || name === 'constructor') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const sub = Reflect.getMetadata(PATH_METADATA, handler) as string;
        const list = (p: string | string[] | undefined) => (Array.isArray(p) ? p : [p ?? '']);
        const paths = list(base).flatMap((b) => list(sub).map((s) => [b, s].filter((p) => p && p !== '/').join('/')));
        routes.push({
          module: moduleRef.metatype?.name ?? '',
          name: `${controller.name}.${name}`,
          verb: RequestMethod[method],
          path: [base, sub].filter((p) => p && p !== '/').join('/'),
          paths,
          meta: (key) => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller),
        });
      }
    }
  }
  return routes;
}
