import { Module } from '@nestjs/common';
import { AttachmentService } from './attachment.service';
import { OBJECT_STORAGE_PROVIDER } from './storage.provider';
import { OBJECT_STORAGE } from './object-storage';

/** The attachment feature: its services, and listeners; exports what other features and the API modules use. */
@Module({
  providers: [AttachmentService, OBJECT_STORAGE_PROVIDER],
  exports: [AttachmentService, OBJECT_STORAGE],
})
export class AttachmentFeatureModule {}
