import { Module } from '@nestjs/common';
import { CycleFeatureModule } from '../cycle';
import { IntakeFeatureModule } from '../intake';
import { IssueFeatureModule } from '../issue';
import { LabelFeatureModule } from '../label';
import { ModuleFeatureModule } from '../module';
import { ProjectFeatureModule } from '../project';
import { StateFeatureModule } from '../state';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { DeployBoardService } from './deploy-board.service';
import { PublicBoardAccess } from './public-board-access';
import { PublicBoardService } from './public-board.service';
import { PublicCommentService } from './public-comment.service';
import { PublicIntakeService } from './public-intake.service';
import { PublicReactionService } from './public-reaction.service';
import { DeployBoardRepository } from './deploy-board.repository';

/**
 * The deploy-board feature: its services; exports what other features and the API modules use. It
 * reads what a board shows through the doors of the rooms below it (the imported modules' services).
 */
@Module({
  imports: [
    UserFeatureModule,
    WorkspaceFeatureModule,
    ProjectFeatureModule,
    StateFeatureModule,
    LabelFeatureModule,
    IssueFeatureModule,
    CycleFeatureModule,
    ModuleFeatureModule,
    IntakeFeatureModule,
  ],
  providers: [
    DeployBoardRepository,
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
