import { Transform } from 'class-transformer';
import {
  IsBoolean, IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, Max, MaxLength, Min, ValidateIf,
} from 'class-validator';
import type { CreateProjectInput } from '#domain';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * `POST /api/v1/workspaces/{slug}/projects/` (reference plane-v1-api.md §8.1). `identifier` is
 * trimmed and upper-cased by the domain; `network` is 0 (secret) or 2 (public, the default).
 */
export class CreateProjectDto implements CreateProjectInput {
  @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(255)
  name: string;

  @Transform(trim) @IsString() @IsNotEmpty() @MaxLength(12)
  identifier: string;

  @IsOptional() @IsString()
  description?: string;

  @IsOptional() @IsIn([0, 2])
  network?: number;

  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID()
  project_lead?: string | null;

  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID()
  default_assignee?: string | null;

  @IsOptional() @IsString() @MaxLength(255)
  emoji?: string | null;

  @IsOptional() @IsObject()
  icon_prop?: Record<string, unknown>;

  @IsOptional() @IsObject()
  logo_props?: Record<string, unknown>;

  @IsOptional() @IsString()
  cover_image?: string | null;

  @IsOptional() @IsBoolean()
  module_view?: boolean;

  @IsOptional() @IsBoolean()
  cycle_view?: boolean;

  @IsOptional() @IsBoolean()
  issue_views_view?: boolean;

  @IsOptional() @IsBoolean()
  page_view?: boolean;

  @IsOptional() @IsBoolean()
  intake_view?: boolean;

  @IsOptional() @IsBoolean()
  is_time_tracking_enabled?: boolean;

  @IsOptional() @IsBoolean()
  guest_view_all_features?: boolean;

  @IsOptional() @IsInt() @Min(0) @Max(12)
  archive_in?: number;

  @IsOptional() @IsInt() @Min(0) @Max(12)
  close_in?: number;

  @IsOptional() @IsString() @MaxLength(255)
  timezone?: string;
}
