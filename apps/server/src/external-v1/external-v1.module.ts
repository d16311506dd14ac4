import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { LabelsController } from './labels.controller';
import { MembersController, UsersController } from './members.controller';
import { CyclesController, ModulesController } from './planning.controller';
import { ProjectsController } from './projects.controller';
import { StatesController } from './states.controller';
import { WorkItemRelationsController } from './relations.controller';
import { EstimatesController } from './estimates.controller';
import { StickiesController } from './stickies.controller';
import { IntakeController } from './intake.controller';
import { AssetTransferController, WorkItemAttachmentsController } from './attachments.controller';
import {
  WorkItemActivitiesController,
  WorkItemCommentsController,
  WorkItemLinksController,
  WorkItemLookupController,
  WorkItemsController,
} from './work-items.controller';

/** External API v1, mounted at `/api/v1/`: integrations, authenticated with `X-API-Key`, rate-limited per key. */
@Module({
  imports: [DomainModule],
  controllers: [
    ProjectsController,
    StatesController,
    LabelsController,
    UsersController,
    MembersController,
    // search/ before {IDENT}-{seq}: Express matches in registration order
    WorkItemLookupController,
    WorkItemsController,
    WorkItemCommentsController,
    WorkItemLinksController,
    WorkItemActivitiesController,
    CyclesController,
    ModulesController,
    WorkItemRelationsController,
    EstimatesController,
    StickiesController,
    IntakeController,
    WorkItemAttachmentsController,
    AssetTransferController,
  ],
})
export class ExternalV1Module {}
