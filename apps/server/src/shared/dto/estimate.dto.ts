import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { ESTIMATE_TYPES, EstimateInput, EstimatePointInput, EstimateType } from '#domain';
import { ReadOnlyBase } from './read-only';
import { IsOptionalNonNull } from '#common';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

class EstimateFieldsDto extends ReadOnlyBase implements EstimateInput {
  @IsOptionalNonNull()
  @IsString()
  description?: string;

  @IsOptionalNonNull()
  @IsIn(ESTIMATE_TYPES)
  type?: EstimateType;

  @IsOptionalNonNull()
  @IsBoolean()
  last_used?: boolean;

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

/** `PATCH …/estimates/` (the SDK's `UpdateEstimateRequest`, plus `type` and `last_used`). */
export class UpdateEstimateDto extends EstimateFieldsDto {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;
}

/** `POST …/estimates/` (the SDK's `CreateEstimateRequest`): `name` required; `type` defaults to `categories`. */
export class CreateEstimateDto extends EstimateFieldsDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;
}

/** `PATCH …/estimate-points/{id}/` (the SDK's `UpdateEstimatePointRequest`). */
export class UpdateEstimatePointDto extends ReadOnlyBase implements EstimatePointInput {
  @IsOptionalNonNull()
  @IsInt()
  @Min(0)
  @Max(1000)
  key?: number;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(20)
  value?: string;

  @IsOptionalNonNull()
  @IsString()
  description?: string;

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
