import { Module } from '@nestjs/common';
import { CycleFeatureModule } from '../cycle';
import { ModuleFeatureModule } from '../module';
import { ProjectFeatureModule } from '../project';
import { FavoriteRepository } from './favorite.repository';
import { FavoriteService } from './favorite.service';

/** The favorite feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [ProjectFeatureModule, CycleFeatureModule, ModuleFeatureModule],
  providers: [FavoriteRepository, FavoriteService],
  exports: [FavoriteService],
})
export class FavoriteFeatureModule {}
