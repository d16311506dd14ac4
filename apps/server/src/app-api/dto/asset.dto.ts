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
 * `POST /api/assets/v2/…/attachments/` (the web app's `TFileMetaDataLite`): `{name, type, size}`;
 * size in bytes, from 1 to `FILE_SIZE_LIMIT` (above: 413 `ATTACHMENT_TOO_LARGE`).
 */
export class CreateAppAttachmentDto {
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
}

/**
 * `POST /api/assets/v2/user-assets/`, `…/workspaces/{slug}/`, `…/projects/{project_id}/` (the web
 * app's `TFileEntityInfo` and `TFileMetaDataLite`): the file's `name`, `type` (default `image/jpeg`)
 * and `size`, and what it belongs to: `entity_type` (Plane's `EntityTypeContext`) and
 * `entity_identifier` ('' while the entity does not exist yet).
 */
export class CreateAssetDto extends CreateAppAttachmentDto {
  @IsString()
  @MaxLength(40)
  entity_type: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  entity_identifier?: string | null;
}

/** The client's `attributes`: only `name` is taken (the type and size stay those the upload was signed for). */
export class AssetAttributesDto {
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name?: string;
}

/** `PATCH` of an asset: an empty body (what the web app sends), or `{attributes: {name}}`. */
export class CompleteAssetDto {
  @IsOptionalNonNull()
  @ValidateNested()
  @Type(() => AssetAttributesDto)
  attributes?: AssetAttributesDto;
}

/** `POST …/projects/{project_id}/{entity_id}/bulk/`: the assets uploaded before their entity existed. */
export class BulkAssetsDto {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  asset_ids: string[];
}
