import { MeridianError, Public } from '#common';
import { Controller, Get, HttpException } from '@nestjs/common';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';

/**
 * `GET /health` (public, for load balancers and orchestrators): 200 `{status: "ok", info, ...}`
 * when the database answers within 3 s; otherwise 503 `SERVICE_UNAVAILABLE` with the failed
 * checks under `checks`.
 */
@Controller('health')
@Public()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
  ) {}

  @Get()
  async check(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.db.pingCheck('database', { timeout: 3000 })]);
    } catch (err) {
      if (err instanceof HttpException) {
        throw new MeridianError('SERVICE_UNAVAILABLE', 'A health check failed.', { checks: err.getResponse() });
      }
      throw err;
    }
  }
}
