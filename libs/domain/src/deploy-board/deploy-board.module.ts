import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { IntakeFeatureModule } from '../intake';
import { DeployBoardService } from './deploy-board.service';
import { PublicBoardService } from './public-board.service';
import { DeployBoardRepository } from './deploy-board.repository';

/** The deploy-board feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule, IntakeFeatureModule],
  providers: [DeployBoardRepository, DeployBoardService, PublicBoardService],
  exports: [DeployBoardService, PublicBoardService],
})
export class DeployBoardFeatureModule {}
