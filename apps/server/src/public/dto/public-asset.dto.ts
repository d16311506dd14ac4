import { IsOptionalNonNull } from '#common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

/**
 * `POST /api/public/assets/v2/anchor/{anchor}/` (Plane `plane/space/views/asset.py`
 * EntityAssetEndpoint.post; the space app's `TFileEntityInfo` and `TFileMetaDataLite`): `name`,
 * `type` (default `image/jpeg`), `size` in bytes (1 to `FILE_SIZE_LIMIT`), `entity_type`
 * (`COMMENT_DESCRIPTION` or `ISSUE_DESCRIPTION`) and `entity_identifier` ('' until the entity exists).
 */
export class CreatePublicAssetDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  type?: string;

  @IsInt()
  @Min(1)
  size: number;

  @IsString()
  @MaxLength(40)
  entity_type: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  entity_identifier?: string | null;
}

/** The client's `attributes`: only `name` is taken. */
export class PublicAssetAttributesDto {
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name?: string;
}

/** `PATCH …/{asset_id}/`: an empty body, or `{attributes: {name}}`. */
export class CompletePublicAssetDto {
  @IsOptionalNonNull()
  @ValidateNested()
  @Type(() => PublicAssetAttributesDto)
  attributes?: PublicAssetAttributesDto;
}

/** `POST …/{entity_id}/bulk/`: `{asset_ids}`, the visitor's uploads made before the comment existed. */
export class BulkPublicAssetsDto {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  asset_ids: string[];
}
