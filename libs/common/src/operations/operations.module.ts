import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type * as http from 'node:http';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Draining } from './draining';
import { Metrics } from './metrics';

/** Serves `/metrics` on `METRICS_PORT` (when set) for as long as the application runs. */
@Injectable()
class MetricsPortServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: http.Server | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metrics.port;
    if (port === undefined) return;
    const server = this.metrics.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.http.host, () => resolve());
    });
    this.server = server;
  }

  /** The port it listens on (METRICS_PORT=0 picks a free one), or null. */
  port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : null;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * The process's operational state, injectable everywhere: `Metrics` (Prometheus, README "Metrics")
 * and `Draining` (the stop sequence's flag, README "Replicas"). `bootstrap.ts` mounts their
 * middleware; `MetricsPortServer` serves `METRICS_PORT`.
 */
@Global()
@Module({})
export class OperationsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: OperationsModule,
      providers: [
        { provide: Metrics, useValue: new Metrics(config.metrics.enabled) },
        { provide: Draining, useValue: new Draining() },
        MetricsPortServer,
      ],
      exports: [Metrics, Draining, MetricsPortServer],
    };
  }
}

export { MetricsPortServer };
