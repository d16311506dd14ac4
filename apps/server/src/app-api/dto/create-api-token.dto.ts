import { Transform } from 'class-transformer';
import { IsDate, IsOptional, IsString, MaxLength } from 'class-validator';
import type { CreateApiTokenInput } from '#domain';
import { IsOptionalNonNull } from '#common';

/**
 * `POST /api/workspaces/{slug}/api-tokens/`: `{label?, description?, expired_at?}`.
 * `expired_at` is an ISO 8601 date or datetime (a date means midnight UTC); null never expires.
 */
export class CreateApiTokenDto implements CreateApiTokenInput {
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  label?: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : value))
  @IsDate({ message: 'expired_at must be an ISO 8601 date or datetime.' })
  expired_at?: Date | null;
}
