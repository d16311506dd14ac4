import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import type { CreateWorkspaceInput, InstanceSetupInput, UpdateInstanceInput } from '#domain';
import { IsOptionalNonNull } from '#common';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * `POST /api/instances/admins/sign-up/` (Plane's admin sign-up, JSON here): `email`, `password`
 * (8 to 128 characters, as for user sign-up) and `first_name` are required.
 */
export class AdminSignUpDto implements InstanceSetupInput {
  @Transform(trim)
  @IsEmail({}, { message: 'Enter a valid email address.' })
  @MaxLength(255)
  email: string;

  @IsString()
  @MinLength(8)
  @MaxLength(128)
  password: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  first_name: string;

  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @MaxLength(255)
  last_name?: string;

  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @MaxLength(255)
  company_name?: string;

  /** accepted for Plane compatibility; Meridian sends no telemetry */
  @IsOptionalNonNull()
  @IsBoolean()
  is_telemetry_enabled?: boolean;
}

/** `PATCH /api/instances/`: the editable instance fields; `id`, `is_setup_done` and the rest are read-only (422). */
export class UpdateInstanceDto implements UpdateInstanceInput {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  instance_name?: string;

  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(255)
  domain?: string | null;

  @IsOptionalNonNull()
  @IsBoolean()
  is_telemetry_enabled?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  is_support_required?: boolean;
}

/** `POST /api/instances/admins/sign-in/`: `{email, password}`. */
export class AdminSignInDto {
  @Transform(trim)
  @IsEmail({}, { message: 'Enter a valid email address.' })
  @MaxLength(255)
  email: string;

  @IsString()
  @MinLength(1)
  @MaxLength(128)
  password: string;
}

/** `POST /api/instances/admins/token/refresh/`: `{refresh_token}`. */
export class AdminRefreshDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  refresh_token: string;
}

/** `POST /api/instances/admins/`: `{email, role?}`; role 20 is the only one (Plane's instance admin role). */
export class AddInstanceAdminDto {
  @Transform(trim)
  @IsEmail({}, { message: 'Enter a valid email address.' })
  @MaxLength(255)
  email: string;

  @IsOptionalNonNull()
  @IsIn([20], { message: 'role must be 20 (instance admin).' })
  role?: number;
}

/** `POST /api/instances/email-credentials-check/` (the admin app's `sendTestEmail`): `{receiver_email}`. */
export class EmailCheckDto {
  @Transform(trim)
  @IsEmail({}, { message: 'Enter a valid email address.' })
  @MaxLength(255)
  receiver_email: string;
}

/**
 * `POST /api/instances/workspaces/` (Plane `plane/license/api/views/workspace.py`
 * InstanceWorkSpaceEndpoint.post): `{name (≤ 80), slug (≤ 48), organization_size?, company_role?}`.
 */
export class InstanceCreateWorkspaceDto implements CreateWorkspaceInput {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  name: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(48)
  @Matches(/^[-a-zA-Z0-9_]+$/, { message: 'Slug may contain only letters, digits, "-" and "_".' })
  slug: string;

  @IsOptional()
  @IsString()
  @MaxLength(20)
  organization_size?: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  timezone?: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  company_role?: string;
}
