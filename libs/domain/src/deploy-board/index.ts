// The deploy-board feature's door: what other features and the API modules use.
export { DeployBoardInput, DeployBoardService } from './deploy-board.service';
export { DeployBoardJson } from './deploy-board.view';
export { PublicBoardService, PublicCommentInput } from './public-board.service';
export { DeployBoardFeatureModule } from './deploy-board.module';
