export * from './attachment.service';
export * from './file-asset.entity';
export * from './object-storage';
export * from './s3-object-storage';
export * from './storage.provider';
export * from './attachment.module';
