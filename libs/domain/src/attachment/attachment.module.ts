import { Module } from '@nestjs/common';
import { AttachmentRepository } from './attachment.repository';
import { AttachmentService } from './attachment.service';
import { AssetService } from './asset.service';
import { AttachmentJobs } from './attachment.jobs';
import { OBJECT_STORAGE } from './object-storage';
import { OBJECT_STORAGE_PROVIDER } from './storage.provider';

/** The attachment feature: its services, and listeners; exports what other features and the API modules use. */
@Module({
  providers: [AttachmentRepository, AttachmentService, AssetService, AttachmentJobs, OBJECT_STORAGE_PROVIDER],
  exports: [AttachmentService, AssetService, OBJECT_STORAGE],
})
export class AttachmentFeatureModule {}
