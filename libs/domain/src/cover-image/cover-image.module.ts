import { Module } from '@nestjs/common';
import { InstanceConfigFeatureModule } from '../instance-config';
import { CoverImageService } from './cover-image.service';

/** The web app's image pickers: Unsplash through the instance key, stock project covers. */
@Module({
  imports: [InstanceConfigFeatureModule],
  providers: [CoverImageService],
  exports: [CoverImageService],
})
export class CoverImageFeatureModule {}
