// The deploy-board feature's door: what other features and the API modules use.
export { DeployBoardInput, DeployBoardService } from './deploy-board.service';
export { DeployBoardJson } from './deploy-board.view';
export { PublicBoardService } from './public-board.service';
export { PublicCommentInput, PublicCommentService } from './public-comment.service';
export { PublicIntakeService } from './public-intake.service';
export { PublicReactionService } from './public-reaction.service';
export { DeployBoardFeatureModule } from './deploy-board.module';
