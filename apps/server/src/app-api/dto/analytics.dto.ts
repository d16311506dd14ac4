import { Transform } from 'class-transformer';
import { Allow, IsNotEmpty, IsObject, IsString, MaxLength } from 'class-validator';
import { IsOptionalNonNull } from '#common';
import type { AnalyticViewInput, ExportRequest } from '#domain';
import { ReadOnlyBase } from '../../shared/dto/read-only';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A saved chart's fields (Plane's `AnalyticViewSerializer`): `query_dict` is checked further by the domain. */
class AnalyticViewFieldsDto extends ReadOnlyBase implements AnalyticViewInput {
  @IsOptionalNonNull()
  @IsString()
  description?: string;

  @IsOptionalNonNull()
  @IsObject()
  query_dict?: Record<string, unknown>;

  @Allow() query?: unknown;
}

/** `POST …/analytic-view/`: `name` required. */
export class CreateAnalyticViewDto extends AnalyticViewFieldsDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;
}

/** `PATCH …/analytic-view/{id}/`. */
export class UpdateAnalyticViewDto extends AnalyticViewFieldsDto {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;
}

/**
 * `POST …/export-analytics/`: the chart (`x_axis`, `y_axis`, `segment`) and Plane's list filters,
 * checked by the domain as Plane does (400 with Plane's messages).
 */
export class ExportAnalyticsDto {
  @Allow() x_axis?: unknown;
  @Allow() y_axis?: unknown;
  @Allow() segment?: unknown;
  @Allow() project?: unknown;
  @Allow() cycle?: unknown;
  @Allow() module?: unknown;
  @Allow() state?: unknown;
  @Allow() state_group?: unknown;
  @Allow() priority?: unknown;
  @Allow() labels?: unknown;
  @Allow() assignees?: unknown;
  @Allow() created_by?: unknown;
  @Allow() start_date?: unknown;
  @Allow() target_date?: unknown;
}

/** `POST …/export-issues/`: `provider` (csv, json, xlsx: else 400 as Plane), `project` ids, `multiple`. */
export class ExportIssuesDto implements ExportRequest {
  @Allow() provider?: unknown;
  @Allow() project?: unknown;
  @Allow() multiple?: unknown;
}
