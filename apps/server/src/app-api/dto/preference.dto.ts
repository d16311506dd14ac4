import { Allow, IsBoolean, IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { IsFiniteInRange, IsOptionalNonNull, SORT_ORDER_MAX, SORT_ORDER_MIN } from '#common';
import {
  CreateFavoriteInput,
  DisplayPropertiesInput,
  FAVORITE_ENTITY_TYPES,
  FavoriteEntityType,
  HomePreferenceInput,
  QuickLinkInput,
  SidebarPreferenceInput,
  UpdateFavoriteInput,
} from '#domain';
import { ReadOnlyBase } from '../../shared/dto/read-only';

/** `PATCH home-preferences/{key}/`: Plane's `WorkspaceHomePreferenceSerializer` fields (`key` is the path's). */
export class HomePreferenceDto implements HomePreferenceInput {
  @IsOptionalNonNull() @IsBoolean() is_enabled?: boolean;
  @IsOptionalNonNull() @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX) sort_order?: number;
  @IsOptionalNonNull() @IsObject() config?: Record<string, unknown>;
  @Allow() key?: unknown;
}

/** `PATCH sidebar-preferences/{key}/`: Plane's `WorkspaceUserPreferenceSerializer` fields (`key` is the path's). */
export class SidebarPreferenceDto implements SidebarPreferenceInput {
  @IsOptionalNonNull() @IsBoolean() is_pinned?: boolean;
  @IsOptionalNonNull() @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX) sort_order?: number;
  @Allow() key?: unknown;
}

/**
 * `PATCH …/user-properties/`: each given object replaces the stored one whole (Plane). Read-only
 * keys of the answer (`user`, `cycle`, `module`, ids, timestamps) are accepted and ignored.
 */
export class DisplayPropertiesDto extends ReadOnlyBase implements DisplayPropertiesInput {
  @IsOptionalNonNull() @IsObject() filters?: Record<string, unknown>;
  @IsOptionalNonNull() @IsObject() display_filters?: Record<string, unknown>;
  @IsOptionalNonNull() @IsObject() display_properties?: Record<string, unknown>;
  @Allow() user?: unknown;
  @Allow() cycle?: unknown;
  @Allow() module?: unknown;
}

/** `POST|PATCH quick-links/`: Plane's `WorkspaceUserLinkSerializer` fields; `url` required on POST. */
export class QuickLinkDto extends ReadOnlyBase implements QuickLinkInput {
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(255) title?: string | null;
  @IsOptionalNonNull() @IsString() @MaxLength(10000) url?: string;
  @IsOptionalNonNull() @IsObject() metadata?: Record<string, unknown>;
  @Allow() owner?: unknown;
}

/**
 * `POST user-favorites/`: Plane's `UserFavoriteSerializer` fields. `entity_data`, `project_id` and
 * `workspace_id`, which the web app sends, are accepted and ignored (the entity decides its project).
 */
export class CreateFavoriteDto implements CreateFavoriteInput {
  @IsIn(FAVORITE_ENTITY_TYPES as unknown as string[]) entity_type: FavoriteEntityType;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID() entity_identifier?: string | null;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(255) name?: string | null;
  @IsOptionalNonNull() @IsBoolean() is_folder?: boolean;
  @IsOptionalNonNull() @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX) sequence?: number;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID() parent?: string | null;
  @Allow() entity_data?: unknown;
  @Allow() project_id?: unknown;
  @Allow() workspace_id?: unknown;
  @Allow() id?: unknown;
}

/** `PATCH user-favorites/{id}/`: rename, reorder, move in or out of a folder; the other favourite keys are ignored. */
export class UpdateFavoriteDto implements UpdateFavoriteInput {
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(255) name?: string | null;
  @IsOptionalNonNull() @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX) sequence?: number;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID() parent?: string | null;
  @Allow() entity_type?: unknown;
  @Allow() entity_identifier?: unknown;
  @Allow() entity_data?: unknown;
  @Allow() is_folder?: unknown;
  @Allow() project_id?: unknown;
  @Allow() workspace_id?: unknown;
  @Allow() id?: unknown;
}

/** `POST user-favorite-projects/`: `{project}`. */
export class FavoriteProjectDto {
  @IsUUID() project: string;
}

/** `POST projects/{id}/user-favorite-cycles/`: `{cycle}`. */
export class FavoriteCycleDto {
  @IsUUID() cycle: string;
}

/** `POST projects/{id}/user-favorite-modules/`: `{module}`. */
export class FavoriteModuleDto {
  @IsUUID() module: string;
}

/**
 * `POST projects/{project_id}/project-views/`: the caller's view settings of the project (Plane
 * 0.25.3 `ProjectUserViewsEndpoint`; each key sent replaces the stored one).
 */
export class ProjectUserViewsDto extends ReadOnlyBase {
  @IsOptionalNonNull() @IsObject() view_props?: Record<string, unknown>;
  @IsOptionalNonNull() @IsObject() default_props?: Record<string, unknown>;
  @IsOptionalNonNull() @IsObject() preferences?: Record<string, unknown>;
  @IsOptionalNonNull() @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX) sort_order?: number;
}

/**
 * `POST /api/workspaces/{slug}/workspace-views/`: the caller's own view settings of the workspace
 * (Plane 0.25.3 `WorkspaceMemberUserViewsEndpoint`): an object, stored as sent; left out, `{}` is
 * stored (Plane's `request.data.get("view_props", {})`).
 */
export class WorkspaceUserViewsDto {
  @IsOptionalNonNull() @IsObject() view_props?: Record<string, unknown>;
}

/** `DELETE /api/workspaces/{slug}/project-identifiers/`: `{name}` (Plane's `ProjectIdentifierEndpoint.delete`). */
export class ReleaseProjectIdentifierDto {
  @IsOptional() @Allow() name?: unknown;
}
