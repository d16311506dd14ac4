import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { IsFiniteInRange, IsOptionalNonNull, SORT_ORDER_MAX, SORT_ORDER_MIN } from '#common';
import type { LabelInput } from '#domain';
import { ReadOnlyBase } from './read-only';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Label fields other than `name` (Plane `plane/api/serializers/issue.py` LabelSerializer). */
class LabelFieldsDto extends ReadOnlyBase implements LabelInput {
  @IsOptionalNonNull()
  @IsString()
  description?: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  color?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  parent?: string | null;

  /** A float from -1e12 to 1e12 (`SORT_ORDER_MIN`…`SORT_ORDER_MAX`); NaN, ±Infinity or beyond: 422. */
  @IsOptionalNonNull()
  @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX)
  sort_order?: number;

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
}

/** `PATCH …/labels/{label_id}/`. */
export class UpdateLabelDto extends LabelFieldsDto {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;
}

/** `POST …/labels/`: `name` required. */
export class CreateLabelDto extends LabelFieldsDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;
}
