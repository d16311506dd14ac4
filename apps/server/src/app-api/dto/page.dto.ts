import {
  Allow,
  IsArray,
  IsBase64,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { IsOptionalNonNull, NullAsEmptyList } from '#common';
import { CreatePageInput, PageDescriptionInput, PageInput } from '#domain';
import { ReadOnlyBase } from '../../shared/dto/read-only';

/**
 * A page's writable fields (Plane's `PageSerializer` / `PageDetailSerializer`,
 * `plane/app/serializers/page.py`). `labels` (Plane's write-only list) and `label_ids` (what the
 * web app holds) both set the labels. `is_locked`, `archived_at` and the other read-only keys the
 * web app sends back are ignored: locking and archiving have their own routes.
 */
class PageFieldsDto extends ReadOnlyBase implements PageInput {
  @IsOptionalNonNull() @IsString() @MaxLength(255) name?: string;
  @IsOptionalNonNull() @IsIn([0, 1]) access?: number;
  @IsOptionalNonNull() @IsString() @MaxLength(255) color?: string;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID() parent?: string | null;
  @IsOptionalNonNull() @IsObject() view_props?: Record<string, unknown>;
  @IsOptionalNonNull() @IsObject() logo_props?: Record<string, unknown>;
  @IsOptional() @NullAsEmptyList() @IsArray() @IsUUID('all', { each: true }) labels?: string[];
  @IsOptional() @NullAsEmptyList() @IsArray() @IsUUID('all', { each: true }) label_ids?: string[];
  @IsOptionalNonNull() @IsString() description_html?: string;

  @Allow() owned_by?: unknown;
  @Allow() is_favorite?: unknown;
  @Allow() is_locked?: unknown;
  @Allow() archived_at?: unknown;
  @Allow() project_ids?: unknown;
  @Allow() anchor?: unknown;
  @Allow() team?: unknown;
  @Allow() issue_ids?: unknown;
}

/** `POST …/pages/`: the fields, and the first description (`description` JSON, `description_binary` base64). */
export class CreatePageDto extends PageFieldsDto implements CreatePageInput {
  @IsOptionalNonNull() @IsObject() description?: Record<string, unknown>;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @IsBase64() description_binary?: string | null;
}

/** `PATCH …/pages/{page_id}/`. */
export class UpdatePageDto extends PageFieldsDto {
  @Allow() description?: unknown;
  @Allow() description_binary?: unknown;
}

/** `POST …/pages/{page_id}/access/`: `access` 0 (public) or 1 (private); Plane's default 0. */
export class PageAccessDto {
  @IsOptionalNonNull() @IsIn([0, 1]) access?: number;
}

/**
 * `PATCH …/pages/{page_id}/description/` (the web app's `TDocumentPayload`): the editor's Yjs
 * document in base64 (required), its HTML and its JSON.
 */
export class PageDescriptionDto implements PageDescriptionInput {
  @IsString() @IsBase64() description_binary: string;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() description_html?: string | null;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsObject() description?: Record<string, unknown>;
}
