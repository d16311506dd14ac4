import {
  answerHttpErrors,
  AppConfig,
  configureAnswerBudget,
  corsFor,
  createRequestLogging,
  Draining,
  Metrics,
  metricsOnHttpPort,
  routeFormPosts,
  QuietStartupLogger,
  requireHost,
  screenInput,
  securityHeaders,
  serveOpenApi,
  shedUnderHeapPressure,
  jsonBodyMiddleware,
  middlewareChain,
  ChainedMiddleware,
  ExpressShapesAdapter,
} from '#common';
import { poolStats, ReadyDatabase } from '#database';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { AppModule } from './app.module';

/**
 * Builds the HTTP application on a started database. `main.ts` and every end-to-end test call
 * this, so both run the same pipeline; what cannot be a Nest provider is set up here. Nest's own
 * start-up messages (modules, mapped routes) are logged at `debug`; requests are logged by
 * `createRequestLogging`'s middleware, mounted first.
 */
export async function createApp(config: AppConfig, database: ReadyDatabase): Promise<INestApplication> {
  // requests and responses made with Express's prototypes from the start (`ExpressShapesAdapter`)
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, database),
    new ExpressShapesAdapter(),
    {
      bodyParser: false,
      bufferLogs: true,
      abortOnError: false,
    },
  );
  // first: with metrics on, every request is timed and counted by its route template (README
  // "Metrics"); every answer is `Connection: close` once the process is stopping (README "Replicas")
  const metrics = app.get(Metrics);
  // the application-wide middleware run as three of the router's layers (before, CORS, after), each
  // chain in Express's order and error rules (`middlewareChain`): the router walks one layer, not twelve
  const before: ChainedMiddleware[] = [];
  if (config.metrics.enabled) {
    metrics.observePool(() => poolStats(database.dataSource));
    before.push(metrics.requestMetrics());
  }
  app.get(Draining).closeConnectionsOf((app.getHttpAdapter().getInstance() as Express).response);
  // then: every request is logged and gets its X-Request-Id, whatever answers it
  const logging = createRequestLogging(config);
  before.push(logging.middleware);
  // memory per request (docs/decisions.md "Memory per request"): lists of large rows are lent their
  // chunks from one budget; near the heap's limit new requests are shed (503) instead of the process dying
  configureAnswerBudget(config.http.answerBudgetBytes);
  before.push(shedUnderHeapPressure(config.http.shedHeapRatio));
  app.use(middlewareChain(before));
  app.useLogger(new QuietStartupLogger(logging.nestLogger));
  app.set('trust proxy', config.http.trustProxy);
  app.disable('x-powered-by');
  // no ETag: Plane sends none and its clients never revalidate; Express would hash every body (SHA-1)
  app.set('etag', false);
  // cookies only from the configured web origins (never `*` with credentials)
  app.enableCors(
    corsFor(config, ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id']),
  );
  // what Node's HTTP parser refuses (bad framing, oversized headers, an unknown Expect) in the error shape
  answerHttpErrors(app.getHttpServer());
  app.use(
    middlewareChain([
      // helmet and Cache-Control: no-store, on every answer (body-parser refusals included)
      securityHeaders(),
      // an HTTP/1.1 request without Host: 400 in the error shape (Node's own answer has no body)
      requireHost(),
      ...jsonBodyMiddleware(config.http.bodyLimit),
      // Plane's sign-in forms post to the JSON flows' paths: route them to their form handlers
      routeFormPosts,
      // NUL, lone surrogates and deep nesting in the path, query or body: 400 before any route
      screenInput(),
    ]),
  );
  // GET /metrics on this port, behind METRICS_TOKEN when set (not with METRICS_PORT: served there)
  if (metricsOnHttpPort(config)) app.use('/metrics', metrics.endpoint(config.metrics.token));
  serveOpenApi(app); // GET /api/openapi.json and /api/docs/, built on first request
  // No enableShutdownHooks(): main.ts handles SIGTERM/SIGINT itself (bounded grace period, logged),
  // and app.close() runs the same shutdown hooks (HTTP server first, then the database).
  return app;
}
