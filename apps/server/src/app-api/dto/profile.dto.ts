import { IsBoolean, IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import type { ProfileInput } from '#domain';

/** `PATCH /api/users/me/profile/`: Plane's Profile fields; unknown keys are a 422. */
export class UpdateProfileDto implements ProfileInput {
  @IsOptional() @IsObject() theme?: Record<string, unknown>;
  @IsOptional() @IsBoolean() is_tour_completed?: boolean;
  @IsOptional() @IsObject() onboarding_step?: Record<string, unknown>;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(10000) use_case?: string | null;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(300) role?: string | null;
  @IsOptional() @IsBoolean() is_onboarded?: boolean;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID() last_workspace_id?: string | null;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(255) billing_address_country?: string | null;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsObject() billing_address?: Record<string, unknown> | null;
  @IsOptional() @IsBoolean() has_billing_address?: boolean;
  @IsOptional() @IsString() @MaxLength(255) company_name?: string;
  @IsOptional() @IsBoolean() is_smooth_cursor_enabled?: boolean;
  @IsOptional() @IsBoolean() is_mobile_onboarded?: boolean;
  @IsOptional() @IsObject() mobile_onboarding_step?: Record<string, unknown>;
  @IsOptional() @IsBoolean() mobile_timezone_auto_set?: boolean;
  @IsOptional() @IsIn(['en', 'fr', 'es', 'ja', 'zh-CN', 'zh-TW', 'ru', 'it', 'cs', 'sk', 'de', 'ua', 'pl', 'ko', 'pt-BR', 'id', 'ro', 'vi-VN', 'tr-TR']) language?: string;
}

/** `PATCH /api/users/me/onboard/`. */
export class OnboardDto {
  @IsBoolean() is_onboarded: boolean;
}

/** `PATCH /api/users/me/tour-completed/`. */
export class TourCompletedDto {
  @IsBoolean() is_tour_completed: boolean;
}
