import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import {
  PublicAnchorLookupController,
  PublicBoardController,
  PublicWorkspaceBoardsController,
} from './public-boards.controller';

/** Public API, mounted at `/api/public/`: published deploy boards, addressed by anchor. */
@Module({
  imports: [DomainModule],
  controllers: [PublicBoardController, PublicAnchorLookupController, PublicWorkspaceBoardsController],
})
export class PublicModule {}
