import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/** An Express 5 router layer (the `router` package's `Layer`): `route` is set on a route's layer. */
interface RouterLayer {
  route?: { path?: unknown };
  match(path: string): unknown;
}

/** The Express 5 application's router (`app.router`), as far as the prefilter reads it. */
export interface PrefilteredRouter {
  stack: RouterLayer[];
  caseSensitive?: boolean;
  strict?: boolean;
}

/** A whole-segment parameter (`:project_id`) and a plain literal segment (`work-items`) of a route path. */
const PARAM = /^:[A-Za-z_$][\w$]*$/;
const LITERAL = /^[\w.~-]+$/;
/** Only ASCII paths are prefiltered: for them the router's case-insensitive match is `toLowerCase` equality. */
const ASCII = /^[\x20-\x7e]*$/;

/**
 * A route path's segments: each a literal (lower-cased unless `caseSensitive`) or `null` for a
 * whole-segment parameter; null when the path uses anything else (wildcards, optional groups, a
 * parameter inside a segment), which the prefilter then leaves to the router alone. The trailing
 * slashes are dropped as the router drops them (`loosen`).
 */
function shapeOf(path: string, caseSensitive: boolean): Array<string | null> | null {
  const trimmed = path.replace(/\/+$/, '');
  if (!trimmed.startsWith('/')) return null;
  const shape: Array<string | null> = [];
  for (const part of trimmed.slice(1).split('/')) {
    if (PARAM.test(part)) shape.push(null);
    else if (LITERAL.test(part)) shape.push(caseSensitive ? part : part.toLowerCase());
    else return null;
  }
  return shape;
}

/**
 * Puts a cheap test in front of every route's own match on `router` (the application's, once every
 * route is registered): a request path whose segments cannot fit the route's (another count,
 * another literal) is not a match, without running the route's regular expression. Express walks
 * its routes in order for every request (about 600 here; the App list's route is past the 400th),
 * running each one's expression; the test answers "no" for nearly all of them from the path's
 * segments, split once per path. Everything else is the router's: the order, the parameters, the
 * trailing-slash rule, 404, 405 (`allowedMethods` asks the same `match`) and OPTIONS.
 *
 * The test only says "no" where the router's expression would: a route is tested only when its path
 * is literal segments and whole-segment parameters, a request only when its path is printable ASCII
 * (where case-insensitive means lower-case equality), and a parameter may stand for any segment.
 * Not applied to a `strict` router (another trailing-slash rule).
 */
export function prefilterRoutes(router: PrefilteredRouter): number {
  if (router.strict) return 0;
  const caseSensitive = Boolean(router.caseSensitive);
  const memo: SegmentsMemo = { caseSensitive, path: undefined, segments: null };
  let filtered = 0;
  for (const layer of router.stack as PrefilteredLayer[]) {
    const path = layer.route?.path;
    if (typeof path !== 'string') continue;
    const parts = shapeOf(path, caseSensitive);
    if (!parts) continue;
    layer[SHAPE] = { parts, memo, match: layer.match };
    // one function for every layer (the router's call site stays monomorphic); the shape on the layer
    layer.match = prefilteredMatch;
    filtered++;
  }
  return filtered;
}

/** The segments of the last path the router asked about (it asks every layer about one path in turn), per router. */
interface SegmentsMemo {
  caseSensitive: boolean;
  path: string | undefined;
  segments: string[] | null;
}

const SHAPE = Symbol('route shape');

interface PrefilteredLayer extends RouterLayer {
  [SHAPE]?: { parts: Array<string | null>; memo: SegmentsMemo; match: RouterLayer['match'] };
}

/** A request path's segments (lower-cased unless case-sensitive), null when the path is not printable ASCII. */
function segmentsOf(memo: SegmentsMemo, path: string): string[] | null {
  if (path === memo.path) return memo.segments;
  memo.path = path;
  if (typeof path !== 'string' || !path.startsWith('/') || !ASCII.test(path)) return (memo.segments = null);
  // one trailing slash is optional for the router (`trailing: true`)
  const p = path.length > 1 && path.endsWith('/') ? path.slice(1, -1) : path.slice(1);
  return (memo.segments = (memo.caseSensitive ? p : p.toLowerCase()).split('/'));
}

/** A prefiltered layer's `match`: false when the path's segments cannot fit the route's, else the router's own match. */
function prefilteredMatch(this: PrefilteredLayer, path: string): unknown {
  const shape = this[SHAPE]!;
  const segments = segmentsOf(shape.memo, path);
  if (segments) {
    const parts = shape.parts;
    if (segments.length !== parts.length) return false;
    for (let i = 0; i < parts.length; i++) if (parts[i] !== null && parts[i] !== segments[i]) return false;
  }
  return shape.match.call(this, path);
}

/**
 * Applies `prefilterRoutes` to the Express application's router once Nest has registered every
 * route (Nest's bootstrap hook runs after the routes and its not-found handler are mounted).
 */
@Injectable()
export class RoutePrefilter implements OnApplicationBootstrap {
  constructor(private readonly host: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const app = this.host.httpAdapter?.getInstance?.() as { router?: PrefilteredRouter } | undefined;
    if (app?.router) prefilterRoutes(app.router);
  }
}
