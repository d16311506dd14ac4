import { Transform } from 'class-transformer';
import {
  Allow, IsBoolean, IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min, ValidateIf,
} from 'class-validator';
import type { UpdateProjectInput } from '#domain';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * `PATCH /api/v1/workspaces/{slug}/projects/{project_id}/` (reference plane-v1-api.md §8.1): every
 * create field, each optional, plus `default_state` and the alias `inbox_view`. Read-only keys of
 * the project (counts, ids, timestamps) are accepted and ignored, as Plane does.
 */
export class UpdateProjectDto implements UpdateProjectInput {
  @IsOptional() @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(255)
  name?: string;

  @IsOptional() @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(12)
  identifier?: string;

  @IsOptional() @IsString()
  description?: string;

  @IsOptional()
  description_text?: unknown;

  @IsOptional()
  description_html?: unknown;

  @IsOptional() @IsIn([0, 2])
  network?: number;

  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID()
  project_lead?: string | null;

  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID()
  default_assignee?: string | null;

  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID()
  default_state?: string | null;

  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(255)
  emoji?: string | null;

  @IsOptional() @ValidateIf((_, v) => v !== null) @IsObject()
  icon_prop?: Record<string, unknown>;

  @IsOptional() @IsObject()
  logo_props?: Record<string, unknown>;

  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString()
  cover_image?: string | null;

  @IsOptional() @IsBoolean() module_view?: boolean;
  @IsOptional() @IsBoolean() cycle_view?: boolean;
  @IsOptional() @IsBoolean() issue_views_view?: boolean;
  @IsOptional() @IsBoolean() page_view?: boolean;
  @IsOptional() @IsBoolean() intake_view?: boolean;

  /** the project's estimate (SDK `estimates.linkToProject`), or null to stop estimating */
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID()
  estimate?: string | null;

  @IsOptional() @IsBoolean() inbox_view?: boolean;
  @IsOptional() @IsBoolean() is_time_tracking_enabled?: boolean;
  @IsOptional() @IsBoolean() guest_view_all_features?: boolean;

  @IsOptional() @IsInt() @Min(0) @Max(12)
  archive_in?: number;

  @IsOptional() @IsInt() @Min(0) @Max(12)
  close_in?: number;

  @IsOptional() @IsString() @MaxLength(255)
  timezone?: string;

  // read-only in Plane: accepted, ignored
  @Allow() id?: unknown;
  @Allow() workspace?: unknown;
  @Allow() created_at?: unknown;
  @Allow() updated_at?: unknown;
  @Allow() deleted_at?: unknown;
  @Allow() created_by?: unknown;
  @Allow() updated_by?: unknown;
  @Allow() total_members?: unknown;
  @Allow() total_cycles?: unknown;
  @Allow() total_modules?: unknown;
  @Allow() is_member?: unknown;
  @Allow() member_role?: unknown;
  @Allow() is_deployed?: unknown;
  @Allow() sort_order?: unknown;
  @Allow() cover_image_url?: unknown;
  @Allow() cover_image_asset?: unknown;
  @Allow() archived_at?: unknown;
  @Allow() is_issue_type_enabled?: unknown;
}
