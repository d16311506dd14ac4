import { APP_CONFIG, AppConfig } from '#common';
import type { Provider } from '@nestjs/common';
import { LocalObjectStorage, OBJECT_STORAGE, ObjectStorage, UrlSigner } from './object-storage';
import type * as S3Module from './s3-object-storage';

/** The S3 store when `config.storage.s3` is set (an S3 bucket is given), else local disk under `config.storage.uploadsDir`. */
export function createObjectStorage(config: AppConfig): ObjectStorage {
  if (config.storage.s3) {
    // the AWS SDK takes a second or more to load: only when an S3 bucket is configured
    const { S3ObjectStorage } = require('./s3-object-storage') as typeof S3Module;
    return new S3ObjectStorage(config.storage.s3);
  }
  return new LocalObjectStorage(config.storage.uploadsDir, new UrlSigner(config.secret.key));
}

export const OBJECT_STORAGE_PROVIDER: Provider = {
  provide: OBJECT_STORAGE,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => createObjectStorage(config),
};
