// The attachment feature's door: what other features, the API modules and the tests use.
export { AttachmentService } from './attachment.service';
export type { ReceivedFile } from './attachment.service';
export { AssetService } from './asset.service';
export { BoardAssetService } from './board-asset.service';
export { LegacyAssetService } from './legacy-asset.service';
export type { BoardAssetScope, CreateAssetInput, ProjectAssetScope, WorkspaceAssetScope } from './asset-core';
export type { LegacyUploadFields } from './legacy-asset.service';
export { ASSET_ENTITY_TYPES } from './asset.view';
export type { FileAttributes } from './file-asset.entity';
export { createObjectStorage } from './storage.provider';
export { OBJECT_STORAGE } from './object-storage';
export type { ObjectStorage } from './object-storage';
export { AttachmentFeatureModule } from './attachment.module';
