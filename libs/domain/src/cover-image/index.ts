// The cover-image feature's door: what the API modules use.
export { CoverImageService, UnsplashQuery } from './cover-image.service';
export { CoverImageFeatureModule } from './cover-image.module';
