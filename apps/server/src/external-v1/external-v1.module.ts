import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { ProjectsController } from './projects.controller';

/** External API v1, mounted at `/api/v1/`: integrations, authenticated with `X-API-Key`, rate-limited per key. */
@Module({ imports: [DomainModule], controllers: [ProjectsController] })
export class ExternalV1Module {}
