import {
  IsBoolean,
  IsDateString,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import type { ProfileInput } from '#domain';
import { IsOptionalNonNull } from '#common';

/** `PATCH /api/users/me/profile/`: Plane's Profile fields; unknown keys are a 422. */
export class UpdateProfileDto implements ProfileInput {
  @IsOptionalNonNull() @IsObject() theme?: Record<string, unknown>;
  @IsOptionalNonNull() @IsBoolean() is_tour_completed?: boolean;
  @IsOptionalNonNull() @IsObject() onboarding_step?: Record<string, unknown>;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(10000) use_case?: string | null;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(300) role?: string | null;
  @IsOptionalNonNull() @IsBoolean() is_onboarded?: boolean;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsUUID() last_workspace_id?: string | null;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(255) billing_address_country?: string | null;
  @IsOptional() @ValidateIf((_, v) => v !== null) @IsObject() billing_address?: Record<string, unknown> | null;
  @IsOptionalNonNull() @IsBoolean() has_billing_address?: boolean;
  @IsOptionalNonNull() @IsString() @MaxLength(255) company_name?: string;
  @IsOptionalNonNull() @IsBoolean() is_smooth_cursor_enabled?: boolean;
  @IsOptionalNonNull() @IsBoolean() is_mobile_onboarded?: boolean;
  @IsOptionalNonNull() @IsObject() mobile_onboarding_step?: Record<string, unknown>;
  @IsOptionalNonNull() @IsBoolean() mobile_timezone_auto_set?: boolean;
  @IsOptionalNonNull()
  @IsIn([
    'en',
    'fr',
    'es',
    'ja',
    'zh-CN',
    'zh-TW',
    'ru',
    'it',
    'cs',
    'sk',
    'de',
    'ua',
    'pl',
    'ko',
    'pt-BR',
    'id',
    'ro',
    'vi-VN',
    'tr-TR',
  ])
  language?: string;
}

/** `PATCH /api/users/me/onboard/`. */
export class OnboardDto {
  @IsBoolean() is_onboarded: boolean;
}

/** `PATCH /api/users/me/tour-completed/`. */
export class TourCompletedDto {
  @IsBoolean() is_tour_completed: boolean;
}

/** `{date}` of `user-activity/{user_id}/export/` (Plane's `ExportWorkspaceUserActivityEndpoint`): the UTC day, `YYYY-MM-DD`. */
export class ExportUserActivityDto {
  @IsDateString({ strict: true })
  date: string;
}

/** `PATCH users/me/notification-preferences/` (Plane's `UserNotificationPreferenceSerializer`, partial). */
export class UpdateNotificationPreferencesDto {
  @IsOptionalNonNull()
  @IsBoolean()
  property_change?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  state_change?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  comment?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  mention?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  issue_completed?: boolean;
}

/** `POST …/projects/{project_id}/join/{id}/` (Plane's `ProjectJoinEndpoint`): the invited email and the answer. */
export class AnswerProjectInvitationDto {
  @IsString()
  @MaxLength(255)
  email: string;

  @IsOptionalNonNull()
  @IsBoolean()
  accepted?: boolean;
}

/** `POST workspace-themes/` (Plane's `WorkspaceThemeSerializer`): `name` (required, at most 300), `colors` (an object). */
export class CreateWorkspaceThemeDto {
  @IsString()
  @MaxLength(300)
  name: string;

  @IsOptionalNonNull()
  @IsObject()
  colors?: Record<string, unknown>;
}

/** `PATCH workspace-themes/{id}/`: any of `name`, `colors`. */
export class UpdateWorkspaceThemeDto {
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(300)
  name?: string;

  @IsOptionalNonNull()
  @IsObject()
  colors?: Record<string, unknown>;
}
