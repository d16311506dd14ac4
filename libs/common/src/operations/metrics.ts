import type { NextFunction, Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { Registry } from 'prom-client';
import type { AppConfig } from '../config/app-config';
import { errorBody, sendError } from '../errors/error-body';

/** `route` of a request that matched no route (404s, and refusals before routing: body parsing, screening). */
export const UNMATCHED_ROUTE = 'unmatched';
/** `route` of the metrics endpoint itself. */
const METRICS_ROUTE = '/metrics';

type Locals = { rateLimitedBy?: string };

/** What the code that counts uses of a prom-client `Counter` (a no-op when metrics are off). */
export interface CounterLike<L extends string> {
  inc(labels: Partial<Record<L, string>>, value?: number): void;
}
/** What the request middleware uses of a prom-client `Histogram`. */
export interface HistogramLike<L extends string> {
  observe(labels: Partial<Record<L, string>>, value: number): void;
}
const NOOP: CounterLike<never> & HistogramLike<never> = { inc: () => undefined, observe: () => undefined };

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
 * in one process). The code that counts never checks whether metrics are on: when they are off,
 * prom-client is not loaded at all (a start does not pay for it), every counter is a no-op and
 * nothing is registered; the request middleware and the process defaults (their event-loop
 * monitor) run only when metrics are on.
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
 * - `meridian_email_notifications_sent_total`, `meridian_email_notification_failures_total` (failed
 *   attempts) and `meridian_email_notifications_given_up_total` (`EmailNotificationService`).
 */
export class Metrics {
  /** null when metrics are off: prom-client is then never loaded (it and its dependencies are ~80 files at start) */
  readonly registry: Registry | null;
  readonly httpRequests: CounterLike<'method' | 'route' | 'status'>;
  readonly httpDuration: HistogramLike<'method' | 'route' | 'status'>;
  readonly rateLimitRejections: CounterLike<'kind'>;
  readonly webhookAttempts: CounterLike<'result'>;
  readonly webhookDeliveries: CounterLike<'status'>;
  readonly emailNotificationsSent: CounterLike<never>;
  readonly emailNotificationFailures: CounterLike<never>;
  readonly emailNotificationsGivenUp: CounterLike<never>;
  private readonly prom: typeof import('prom-client') | null;

  constructor(readonly enabled: boolean) {
    // loaded here, and only when metrics are on: a start without metrics does not pay for it
    this.prom = enabled ? (require('prom-client') as typeof import('prom-client')) : null;
    const registry = (this.registry = this.prom ? new this.prom.Registry() : null);
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): CounterLike<L> =>
      this.prom && registry ? new this.prom.Counter({ name, help, labelNames, registers: [registry] }) : NOOP;
    this.httpRequests = counter(
      'meridian_http_requests_total',
      'HTTP requests answered, by method, route template and status',
      ['method', 'route', 'status'] as const,
    );
    this.httpDuration =
      this.prom && registry
        ? new this.prom.Histogram({
            name: 'meridian_http_request_duration_seconds',
            help: 'Time from the request to the end of the response, by method, route template and status',
            labelNames: ['method', 'route', 'status'] as const,
            buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
            registers: [registry],
          })
        : NOOP;
    this.rateLimitRejections = counter(
      'meridian_rate_limit_rejections_total',
      'Requests refused with 429 by a rate limit, by kind of limit',
      ['kind'] as const,
    );
    this.webhookAttempts = counter(
      'meridian_webhook_attempts_total',
      'Webhook delivery attempts made by this process, by result (success: a 2xx; error: anything else)',
      ['result'] as const,
    );
    this.webhookDeliveries = counter(
      'meridian_webhook_deliveries_total',
      'Webhook deliveries finished by this process, by final status (delivered, failed, discarded)',
      ['status'] as const,
    );
    this.emailNotificationsSent = counter(
      'meridian_email_notifications_sent_total',
      'Work item notification emails sent by this process (one per receiver and work item, stacked)',
      [] as const,
    );
    this.emailNotificationFailures = counter(
      'meridian_email_notification_failures_total',
      'Failed attempts to send a work item notification email (each is retried with backoff until the cap)',
      [] as const,
    );
    this.emailNotificationsGivenUp = counter(
      'meridian_email_notifications_given_up_total',
      'Work item notification emails given up after the last failed attempt',
      [] as const,
    );
    if (this.prom && registry)
      this.prom.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  }

  /** Gauges of the database connection pool, read from `stats` at each scrape. */
  observePool(stats: () => PoolStats | null): void {
    if (!this.prom || !this.registry) return;
    const { Gauge } = this.prom;
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
    if (!this.prom || !this.registry) return;
    new this.prom.Gauge({
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
    if (!this.registry) throw new Error('metrics are off (METRICS_ENABLED)');
    // prom-client writes a NaN value as `Nan` (the event-loop lag's mean before its first sample, in
    // a scrape right after start-up); the exposition format spells it `NaN`
    const body = (await this.registry.metrics()).replace(/ Nan$/gm, ' NaN');
    return { contentType: this.registry.contentType, body };
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
