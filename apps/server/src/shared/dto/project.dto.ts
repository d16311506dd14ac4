import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import type { CreateProjectInput, UpdateProjectInput } from '#domain';
import { IsOptionalNonNull } from '#common';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * Project fields writable on create and update (Plane `plane/api/serializers/project.py`
 * ProjectSerializer), shared by the App API and the External API. `network` is 0 (secret) or 2 (public).
 */
export class ProjectFieldsDto {
  @IsOptionalNonNull()
  @IsString()
  description?: string;

  @IsOptionalNonNull()
  @IsIn([0, 2])
  network?: number;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  project_lead?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  default_assignee?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  emoji?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsObject()
  icon_prop?: Record<string, unknown>;

  @IsOptionalNonNull()
  @IsObject()
  logo_props?: Record<string, unknown>;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  cover_image?: string | null;

  @IsOptionalNonNull() @IsBoolean() module_view?: boolean;
  @IsOptionalNonNull() @IsBoolean() cycle_view?: boolean;
  @IsOptionalNonNull() @IsBoolean() issue_views_view?: boolean;
  @IsOptionalNonNull() @IsBoolean() page_view?: boolean;
  @IsOptionalNonNull() @IsBoolean() intake_view?: boolean;
  @IsOptionalNonNull() @IsBoolean() is_time_tracking_enabled?: boolean;
  @IsOptionalNonNull() @IsBoolean() guest_view_all_features?: boolean;

  @IsOptionalNonNull()
  @IsInt()
  @Min(0)
  @Max(12)
  archive_in?: number;

  @IsOptionalNonNull()
  @IsInt()
  @Min(0)
  @Max(12)
  close_in?: number;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  timezone?: string;
}

/** Create: `name` and `identifier` required; the identifier is trimmed and upper-cased by the domain. */
export class CreateProjectDto extends ProjectFieldsDto implements CreateProjectInput {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(12)
  identifier: string;
}

/** Update: every field optional, plus `default_state`, the descriptions and the alias `inbox_view`. */
export class UpdateProjectDto extends ProjectFieldsDto implements UpdateProjectInput {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(12)
  identifier?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  default_state?: string | null;

  @IsOptional()
  description_text?: unknown;

  @IsOptional()
  description_html?: unknown;

  @IsOptionalNonNull()
  @IsBoolean()
  inbox_view?: boolean;

  /** the project's estimate (SDK `estimates.linkToProject`), or null to stop estimating */
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  estimate?: string | null;
}
