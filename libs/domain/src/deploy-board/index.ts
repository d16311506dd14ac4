export * from './deploy-board.entity';
export * from './deploy-board.service';
export * from './deploy-board.view';
export * from './public-board.service';
export * from './deploy-board.module';
