import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import {
  PublicAnchorLookupController,
  PublicBoardController,
  PublicWorkspaceBoardsController,
} from './public-boards.controller';
import { PublicAssetsController } from './public-assets.controller';

/** Public API, mounted at `/api/public/`: published deploy boards, addressed by anchor. */
@Module({
  imports: [DomainModule],
  controllers: [
    PublicBoardController,
    PublicAnchorLookupController,
    PublicWorkspaceBoardsController,
    PublicAssetsController,
  ],
})
export class PublicModule {}
