// The attachment feature's door: what other features, the API modules and the tests use.
export { AttachmentService } from './attachment.service';
export { createObjectStorage } from './storage.provider';
export { AttachmentFeatureModule } from './attachment.module';
