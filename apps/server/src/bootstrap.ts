import { AppConfig, serveOpenApi, useJsonBody } from '#common';
import { ReadyDatabase } from '#database';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';

/**
 * Builds the HTTP application on a started database. `main.ts` and every end-to-end test call
 * this, so both run the same pipeline; what cannot be a Nest provider is set up here.
 */
export async function createApp(config: AppConfig, database: ReadyDatabase): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, database), {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.http.trustProxy);
  app.disable('x-powered-by');
  app.enableCors({ exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id'] });
  useJsonBody(app, config.http.bodyLimit);
  serveOpenApi(app); // GET /api/openapi.json and /api/docs/, built on first request
  app.enableShutdownHooks();
  return app;
}
