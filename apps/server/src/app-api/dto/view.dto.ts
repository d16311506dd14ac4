import { Transform } from 'class-transformer';
import { Allow, IsBoolean, IsIn, IsNotEmpty, IsObject, IsString, IsUUID, MaxLength } from 'class-validator';
import { IsFiniteInRange, IsOptionalNonNull, SORT_ORDER_MAX, SORT_ORDER_MIN } from '#common';
import { ViewInput } from '#domain';
import { ReadOnlyBase } from '../../shared/dto/read-only';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * A saved view's fields other than `name` (Plane's `IssueViewSerializer`, `plane/app/serializers/view.py`).
 * `filters` is checked further by the domain (each known key a list of valid values). `access`
 * (0 private, 1 public) and `is_locked`, read-only in Plane's serializer, are writable here
 * (docs/decisions.md, "Saved views"). The read-only keys the web app sends back are ignored.
 */
class ViewFieldsDto extends ReadOnlyBase implements ViewInput {
  @IsOptionalNonNull()
  @IsString()
  description?: string;

  @IsOptionalNonNull()
  @IsObject()
  filters?: Record<string, unknown>;

  @IsOptionalNonNull()
  @IsObject()
  display_filters?: Record<string, unknown>;

  @IsOptionalNonNull()
  @IsObject()
  display_properties?: Record<string, unknown>;

  @IsOptionalNonNull()
  @IsIn([0, 1])
  access?: number;

  /** A float from -1e12 to 1e12 (`SORT_ORDER_MIN`…`SORT_ORDER_MAX`); NaN, ±Infinity or beyond: 422. */
  @IsOptionalNonNull()
  @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX)
  sort_order?: number;

  @IsOptionalNonNull()
  @IsObject()
  logo_props?: Record<string, unknown>;

  @IsOptionalNonNull()
  @IsBoolean()
  is_locked?: boolean;

  @Allow() query?: unknown;
  @Allow() query_data?: unknown;
  @Allow() owned_by?: unknown;
  @Allow() is_favorite?: unknown;
  @Allow() anchor?: unknown;
}

/** `POST …/views/`: `name` required. */
export class CreateViewDto extends ViewFieldsDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;
}

/** `PATCH …/views/{view_id}/`. */
export class UpdateViewDto extends ViewFieldsDto {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;
}

/** `POST …/user-favorite-views/`: `{view}`. */
export class FavoriteViewDto {
  @IsUUID() view: string;
}
