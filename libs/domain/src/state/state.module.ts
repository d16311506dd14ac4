import { Module } from '@nestjs/common';
import { StateRepository } from './state.repository';
import { StateService } from './state.service';

/** The state feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [StateRepository, StateService],
  exports: [StateService],
})
export class StateFeatureModule {}
