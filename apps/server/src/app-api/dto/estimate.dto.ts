import { Type } from 'class-transformer';
import { IsArray, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { CreateEstimateDto, UpdateEstimateDto } from '../../shared/dto/estimate.dto';
import { IsOptionalNonNull, NullAsEmptyList } from '#common';

/**
 * `POST …/estimates/` on the App API: Plane's web body `{estimate: {name, type, …}, estimate_points:
 * [{key, value}, …]}`, or the flat estimate fields as on v1 (with `estimate_points` beside them).
 */
export class AppCreateEstimateDto extends UpdateEstimateDto {
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateEstimateDto)
  estimate?: CreateEstimateDto;

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  estimate_points?: unknown[];
}
