import { Transform } from 'class-transformer';
import { Allow, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsFiniteInRange, IsOptionalNonNull, SORT_ORDER_MAX, SORT_ORDER_MIN } from '#common';
import { STATE_GROUPS, StateGroup, StateInput } from '#domain';
import { ReadOnlyBase } from './read-only';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** State fields other than `name` and `color` (Plane `plane/api/serializers/state.py` StateSerializer); `slug` follows the name and is ignored. */
class StateFieldsDto extends ReadOnlyBase implements StateInput {
  @IsOptionalNonNull()
  @IsString()
  description?: string;

  /** A float from -1e12 to 1e12 (`SORT_ORDER_MIN`…`SORT_ORDER_MAX`); NaN, ±Infinity or beyond: 422. */
  @IsOptionalNonNull()
  @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX)
  sequence?: number;

  @IsOptionalNonNull()
  @IsIn(STATE_GROUPS)
  group?: StateGroup;

  @IsOptionalNonNull()
  @IsBoolean()
  is_triage?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  default?: boolean;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  external_source?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  external_id?: string | null;

  @Allow() slug?: unknown;
}

/** `PATCH …/states/{state_id}/`. */
export class UpdateStateDto extends StateFieldsDto {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  color?: string;
}

/** `POST …/states/`: `name` and `color` required; `group` defaults to backlog. */
export class CreateStateDto extends StateFieldsDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  color: string;
}
