import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { IntakeFeatureModule } from '../intake';
import { DeployBoardService } from './deploy-board.service';
import { PublicBoardAccess } from './public-board-access';
import { PublicBoardService } from './public-board.service';
import { PublicCommentService } from './public-comment.service';
import { PublicIntakeService } from './public-intake.service';
import { PublicReactionService } from './public-reaction.service';
import { DeployBoardRepository } from './deploy-board.repository';
import { PublicBoardRepository } from './public-board.repository';

/** The deploy-board feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule, IntakeFeatureModule],
  providers: [
    DeployBoardRepository,
    PublicBoardRepository,
    DeployBoardService,
    PublicBoardAccess,
    PublicBoardService,
    PublicCommentService,
    PublicReactionService,
    PublicIntakeService,
  ],
  exports: [DeployBoardService, PublicBoardService, PublicCommentService, PublicReactionService, PublicIntakeService],
})
export class DeployBoardFeatureModule {}
