import type { Request } from 'express';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * The HTTP methods that Express routes accept for the request's path, used to answer 405 instead
 * of 404 when the path exists under another method.
 */
export function allowedMethods(req: Request): string[] {
  const router = (req.app as unknown as { router?: { stack: RouterLayer[] } }).router;
  if (!router) return [];
  const methods = new Set<string>();
  for (const layer of router.stack) {
    // skip Nest's catch-all not-found route, which claims every method
    if (!layer.route || layer.route.path.includes('*')) continue;
    try {
      if (!layer.match(req.path)) continue;
    } catch {
      continue;
    }
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  return [...methods].sort();
}
