import { Draining, meridianVersion, MeridianError, Public } from '#common';
import { pendingMigrations } from '#database';
import { Controller, Get, HttpException } from '@nestjs/common';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { DataSource } from 'typeorm';

/**
 * `GET /health` (public, for load balancers and orchestrators).
 *
 * 200 `{status: "ok", version, info: {database: {status: "up"}, migrations: {status: "up", pending: []}}, error: {}, details}`
 * when the database answers within 3 s and every migration this build knows is applied. Otherwise
 * 503 `SERVICE_UNAVAILABLE` with `version` and the failed checks under `checks`; pending migrations
 * (possible only with `MIGRATIONS_RUN=false`) are listed in `checks.error.migrations.pending` and in
 * `pending_migrations`. While the process is stopping (`SHUTDOWN_DRAIN_MS` after SIGTERM, README
 * "Replicas") it answers 503 with `draining: true`. Every 503 has `Retry-After: 5` (the exception
 * filter's, as the database's 503s). `version` is Meridian's own (package.json), not Plane's `current_version`.
 */
@Controller('health')
@Public()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly draining: Draining,
  ) {}

  @Get()
  async check(): Promise<HealthCheckResult & { version: string }> {
    const version = meridianVersion();
    if (this.draining.active) {
      // stopping (SIGTERM): out of rotation while in-flight requests finish (README "Replicas")
      throw new MeridianError('SERVICE_UNAVAILABLE', 'The server is stopping.', { version, draining: true });
    }
    let pending: string[] = [];
    try {
      const result = await this.health.check([
        // the connection given, not looked up: terminus would import @nestjs/typeorm by a computed
        // name, which the server's bundle (scripts/bundle.js) resolves to a second copy
        () => this.db.pingCheck('database', { connection: this.dataSource, timeout: 3000 }),
        async () => {
          const migrations = this.indicators.check('migrations');
          try {
            pending = await pendingMigrations(this.dataSource);
          } catch (err) {
            return migrations.down({ message: `cannot read the applied migrations: ${(err as Error).message}` });
          }
          return pending.length ? migrations.down({ pending }) : migrations.up({ pending });
        },
      ]);
      return { ...result, version };
    } catch (err) {
      if (err instanceof HttpException) {
        throw new MeridianError(
          'SERVICE_UNAVAILABLE',
          pending.length ? `${pending.length} database migration(s) are pending.` : 'A health check failed.',
          {
            version,
            ...(pending.length ? { pending_migrations: pending } : {}),
            checks: err.getResponse(),
          },
        );
      }
      throw err;
    }
  }
}
