import { Allow, IsObject, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsFiniteInRange, IsOptionalNonNull, SORT_ORDER_MAX, SORT_ORDER_MIN } from '#common';
import { StickyInput } from '#domain';
import { ReadOnlyBase } from './read-only';

/**
 * `POST|PATCH …/stickies/` (the SDK's `CreateSticky` / `UpdateSticky`); every field optional.
 * Read-only keys (`owner`, `description_stripped`, `description_binary`, ids, timestamps) are
 * accepted and ignored.
 */
export class StickyDto extends ReadOnlyBase implements StickyInput {
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(10000)
  name?: string | null;

  @IsOptionalNonNull()
  @IsObject()
  description?: Record<string, unknown>;

  @IsOptionalNonNull()
  @IsString()
  description_html?: string;

  @IsOptionalNonNull()
  @IsObject()
  logo_props?: Record<string, unknown>;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  color?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  background_color?: string | null;

  /** A float from -1e12 to 1e12 (`SORT_ORDER_MIN`…`SORT_ORDER_MAX`); NaN, ±Infinity or beyond: 422. */
  @IsOptionalNonNull()
  @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX)
  sort_order?: number;

  @Allow() owner?: unknown;
  @Allow() description_stripped?: unknown;
  @Allow() description_binary?: unknown;
}
