import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { ProjectFeatureModule } from '../project';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { AttachmentRepository } from './attachment.repository';
import { AttachmentService } from './attachment.service';
import { AssetCore } from './asset-core';
import { AssetService } from './asset.service';
import { BoardAssetService } from './board-asset.service';
import { LegacyAssetService } from './legacy-asset.service';
import { AttachmentJobs } from './attachment.jobs';
import { OBJECT_STORAGE } from './object-storage';
import { OBJECT_STORAGE_PROVIDER } from './storage.provider';

/** The attachment feature: its services, and listeners; exports what other features and the API modules use. */
@Module({
  imports: [UserFeatureModule, WorkspaceFeatureModule, ProjectFeatureModule, IssueFeatureModule],
  providers: [
    AttachmentRepository,
    AttachmentService,
    AssetCore,
    AssetService,
    BoardAssetService,
    LegacyAssetService,
    AttachmentJobs,
    OBJECT_STORAGE_PROVIDER,
  ],
  exports: [AttachmentService, AssetService, BoardAssetService, LegacyAssetService, OBJECT_STORAGE],
})
export class AttachmentFeatureModule {}
