import { Module } from '@nestjs/common';
import { FavoriteRepository } from './favorite.repository';
import { FavoriteService } from './favorite.service';

/** The favorite feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [FavoriteRepository, FavoriteService],
  exports: [FavoriteService],
})
export class FavoriteFeatureModule {}
