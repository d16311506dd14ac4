import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { ApiTokensController } from './api-tokens.controller';
import { WorkspacesController } from './workspaces.controller';

/** App API, mounted at `/api/`: the web app's operations, authenticated with Bearer access tokens. */
@Module({ imports: [DomainModule], controllers: [WorkspacesController, ApiTokensController] })
export class AppApiModule {}
