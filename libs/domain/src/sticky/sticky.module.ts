import { Module } from '@nestjs/common';
import { StickyRepository } from './sticky.repository';
import { StickyService } from './sticky.service';

/** The sticky feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [StickyRepository, StickyService],
  exports: [StickyService],
})
export class StickyFeatureModule {}
