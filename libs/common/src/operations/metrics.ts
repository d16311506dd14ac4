import type { NextFunction, Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppConfig } from '../config/app-config';
import { errorBody, sendError } from '../errors/error-body';

/** `route` of a request that matched no route (404s, and refusals before routing: body parsing, screening). */
export const UNMATCHED_ROUTE = 'unmatched';
/** `route` of the metrics endpoint itself. */
const METRICS_ROUTE = '/metrics';

type Locals = { rateLimitedBy?: string };

/**
 * Marks a response as refused by a rate limit of `kind` (the limit's header tag: `api-key`, `auth`,
 * `public`, `sign-up`, `email`, `failed-auth`, `password:address`, `password:email`,
 * `magic:address`); counted in `meridian_rate_limit_rejections_total` when the response ends.
 */
export function markRateLimited(res: Response, kind: string): void {
  (res.locals as Locals).rateLimitedBy = kind;
}

/** The connection pool's counts at one moment (pg `Pool`: `totalCount`, `idleCount`, `waitingCount`, `options.max`). */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * The process's Prometheus metrics (prom-client), one registry per application (tests run several
 * in one process). Every metric is registered whether or not metrics are served, so the code that
 * counts never checks; what costs something on every request or all the time (the request
 * middleware, the process defaults with their event-loop monitor) runs only when metrics are on.
 *
 * - `meridian_http_requests_total{method,route,status}` and
 *   `meridian_http_request_duration_seconds{method,route,status}`: `route` is the matched route's
 *   template as Nest registered it (`/api/v1/workspaces/:slug/projects/:project_id/issues/`), or
 *   `unmatched`; never the raw path, so ids never become label values.
 * - `meridian_db_pool_connections{state="in_use"|"idle"}`, `meridian_db_pool_waiting` (queries
 *   waiting for a connection) and `meridian_db_pool_max`: read at scrape time (`observePool`).
 * - `meridian_rate_limit_rejections_total{kind}` (`markRateLimited`).
 * - `meridian_webhook_attempts_total{result}` and `meridian_webhook_deliveries_total{status}` (the
 *   delivery worker), and the outbox gauges a feature registers with `gauge`.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'meridian_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'meridian_http_request_duration_seconds',
    help: 'Time from the request to the end of the response, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly rateLimitRejections = new Counter({
    name: 'meridian_rate_limit_rejections_total',
    help: 'Requests refused with 429 by a rate limit, by kind of limit',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly webhookAttempts = new Counter({
    name: 'meridian_webhook_attempts_total',
    help: 'Webhook delivery attempts made by this process, by result (success: a 2xx; error: anything else)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'meridian_webhook_deliveries_total',
    help: 'Webhook deliveries finished by this process, by final status (delivered, failed, discarded)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  constructor(readonly enabled: boolean) {
    if (enabled) collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
  }

  /** Gauges of the database connection pool, read from `stats` at each scrape. */
  observePool(stats: () => PoolStats | null): void {
    const read = () => stats() ?? { total: 0, idle: 0, waiting: 0, max: 0 };
    new Gauge({
      name: 'meridian_db_pool_connections',
      help: 'Database connections of this process, by state (in_use, idle)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const s = read();
        this.set({ state: 'in_use' }, s.total - s.idle);
        this.set({ state: 'idle' }, s.idle);
      },
    });
    new Gauge({
      name: 'meridian_db_pool_waiting',
      help: 'Queries waiting for a free database connection',
      registers: [this.registry],
      collect() {
        this.set(read().waiting);
      },
    });
    new Gauge({
      name: 'meridian_db_pool_max',
      help: 'Size of the database connection pool (DATABASE_POOL_SIZE; 1 for the embedded database)',
      registers: [this.registry],
      collect() {
        this.set(read().max);
      },
    });
  }

  /**
   * A gauge whose values `read` supplies at each scrape (label values → value). A failing `read`
   * leaves the gauge empty for that scrape rather than failing the whole answer.
   */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => Promise<{ labels: Partial<Record<L, string>>; value: number }[]>,
  ): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          for (const { labels, value } of await read()) this.set(labels, value);
        } catch {
          // the database is down: /health says so; the other metrics are still worth having
        }
      },
    });
  }

  /**
   * Express middleware, mounted first: times every request and counts it when its response ends
   * (or the client goes away: status `aborted`), labelled with the route template.
   */
  requestMetrics() {
    return (req: Request, res: Response, next: NextFunction) => {
      const start = process.hrtime.bigint();
      res.once('close', () => {
        const route = (req as { metricsRoute?: string }).metricsRoute ?? routeTemplate(req);
        const labels = {
          method: req.method,
          route,
          status: res.writableFinished ? String(res.statusCode) : 'aborted',
        };
        this.httpRequests.inc(labels);
        this.httpDuration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
        const kind = (res.locals as Locals).rateLimitedBy;
        if (kind && res.statusCode === 429) this.rateLimitRejections.inc({ kind });
      });
      next();
    };
  }

  /** The text exposition (`registry.metrics()`) with its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /**
   * `GET /metrics` on the HTTP port: Express middleware for the path `/metrics`. With a token, the
   * request must carry `Authorization: Bearer <token>`: 401 `AUTHENTICATION_REQUIRED` without one,
   * 401 `INVALID_ACCESS_TOKEN` with another (compared in constant time).
   */
  endpoint(token: string | undefined) {
    const expected = token ? digest(token) : null;
    return (req: Request, res: Response, next: NextFunction) => {
      if (req.path !== '/' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
      (req as { metricsRoute?: string }).metricsRoute = METRICS_ROUTE;
      if (expected) {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
        if (!m) return sendError(res, 'AUTHENTICATION_REQUIRED');
        if (!timingSafeEqual(digest(m[1]), expected)) return sendError(res, 'INVALID_ACCESS_TOKEN');
      }
      this.render().then(
        ({ contentType, body }) => res.status(200).type(contentType).send(body),
        (err: unknown) => next(err),
      );
    };
  }

  /** A separate HTTP server that answers `GET /metrics` (and nothing else: 404), for `METRICS_PORT`. */
  createServer(): http.Server {
    return http.createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== METRICS_ROUTE || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify(errorBody('ROUTE_NOT_FOUND')));
        return;
      }
      this.render().then(
        ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
        () => res.writeHead(500).end(),
      );
    });
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** The matched route's template (Express sets `req.route` on a match; Nest registers full paths). */
function routeTemplate(req: Request): string {
  const route = (req as { route?: { path?: unknown } }).route;
  if (!route || typeof route.path !== 'string') return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${route.path}`;
}

/** Whether `config` serves metrics on the HTTP port (enabled and no separate port). */
export function metricsOnHttpPort(config: AppConfig): boolean {
  return config.metrics.enabled && config.metrics.port === undefined;
}
