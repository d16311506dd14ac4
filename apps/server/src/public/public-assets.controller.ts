import { BearerAuth, CurrentPrincipal, Principal, Public, PublicRateLimit, UuidPipe } from '#common';
import { BoardAssetScope, BoardAssetService, PublicBoardService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { BulkPublicAssetsDto, CompletePublicAssetDto, CreatePublicAssetDto } from './dto/public-asset.dto';

/**
 * Images of a published board's visitors (Plane `plane/space/views/asset.py` EntityAssetEndpoint,
 * AssetRestoreEndpoint, EntityBulkAssetEndpoint), through the App's upload flow (`BoardAssetService`):
 * `POST` → `{upload_data, asset_id, asset_url}`, a multipart `POST` of the file to
 * `upload_data.url`, then `PATCH` → 204. Reads are public (302 to a signed URL of an uploaded image
 * in a description of the board's project); writes need a signed-in visitor and reach only the
 * images they uploaded to this board's project (another's → 404). An unknown or unpublished anchor
 * is a 404 `BOARD_NOT_FOUND`; every route counts against `PUBLIC_RATE_LIMIT`.
 */
@Controller('assets/v2/anchor/:anchor')
@Public()
@PublicRateLimit()
export class PublicAssetsController {
  constructor(
    private readonly boards: PublicBoardService,
    private readonly assets: BoardAssetService,
  ) {}

  private async scope(anchor: string, me: Principal): Promise<BoardAssetScope> {
    return { ...(await this.boards.assetScope(anchor)), userId: me.userId };
  }

  /**
   * 200 `{upload_data: {url, method, fields}, asset_id, asset_url}`; `entity_type` `COMMENT_DESCRIPTION`
   * or `ISSUE_DESCRIPTION` (else 400 INVALID_ENTITY_TYPE); JPEG, PNG, WebP or GIF (else 400
   * ATTACHMENT_TYPE_NOT_ALLOWED); 413 ATTACHMENT_TOO_LARGE; an `entity_identifier` that is not a
   * comment of the project or a work item the visitor made → 404.
   */
  @Post()
  @BearerAuth()
  @HttpCode(200)
  async create(@CurrentPrincipal() me: Principal, @Param('anchor') anchor: string, @Body() body: CreatePublicAssetDto) {
    return this.assets.createBoardAsset(await this.scope(anchor, me), body);
  }

  /** Public: 302 to a signed URL (5 minutes) of an uploaded description image of the board's project; else 404. */
  @Get(':asset_id')
  async read(@Param('anchor') anchor: string, @Param('asset_id', UuidPipe) id: string, @Res() res: Response) {
    res.redirect(302, await this.assets.boardReadUrl(await this.boards.assetScope(anchor), id));
  }

  /** 204: the file is stored (else 400 ATTACHMENT_NOT_UPLOADED); the visitor's own upload only. */
  @Patch(':asset_id')
  @BearerAuth()
  @HttpCode(204)
  async complete(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('asset_id', UuidPipe) id: string,
    @Body() body: CompletePublicAssetDto,
  ) {
    await this.assets.completeBoardAsset(await this.scope(anchor, me), id, body.attributes);
  }

  /** 204: soft delete of the visitor's own upload (restorable). */
  @Delete(':asset_id')
  @BearerAuth()
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('asset_id', UuidPipe) id: string,
  ) {
    await this.assets.deleteBoardAsset(await this.scope(anchor, me), id);
  }

  /** 204: un-deletes the visitor's own upload (an editor's undo). */
  @Post('restore/:asset_id')
  @BearerAuth()
  @HttpCode(204)
  async restore(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('asset_id', UuidPipe) id: string,
  ) {
    await this.assets.restoreBoardAsset(await this.scope(anchor, me), id);
  }

  /** 204: links the visitor's comment images to the comment `entity_id` of the project; 404 when none is theirs. */
  @Post(':entity_id/bulk')
  @BearerAuth()
  @HttpCode(204)
  async bulk(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('entity_id', UuidPipe) entityId: string,
    @Body() body: BulkPublicAssetsDto,
  ) {
    await this.assets.bulkLinkBoardAssets(await this.scope(anchor, me), entityId, body.asset_ids);
  }
}
