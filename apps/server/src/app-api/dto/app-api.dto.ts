import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { InviteInput, UpdateApiTokenInput, UpdateMeInput, UpdateWorkspaceInput } from '#domain';
import { IsOptionalNonNull } from '#common';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const ROLES = [5, 15, 20];
const ROLE_MESSAGE = { message: 'role must be 20 (Admin), 15 (Member) or 5 (Guest).' };
const toDate = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : value;

/** `PATCH /api/users/me/` (Plane `plane/app/views/user/base.py` UserEndpoint): profile fields only. */
export class UpdateMeDto implements UpdateMeInput {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @MaxLength(255)
  first_name?: string;

  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @MaxLength(255)
  last_name?: string;

  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  display_name?: string;

  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]{1,128}$/, {
    message: 'username may contain letters, digits, ".", "-" and "_" (at most 128).',
  })
  username?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(2048)
  avatar?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(2048)
  cover_image?: string | null;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  user_timezone?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  mobile_number?: string | null;
}

/** `POST /api/users/me/workspaces/invitations/`: `{invitations: [invitation ids]}`. */
export class AcceptInvitationsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  invitations: string[];
}

/** `POST /api/users/me/workspaces/{slug}/projects/invitations/`: `{project_ids: [...]}`. */
export class JoinProjectsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  project_ids: string[];
}

/** `PATCH /api/workspaces/{slug}/` (Admins). */
export class UpdateWorkspaceDto implements UpdateWorkspaceInput {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  name?: string;

  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(48)
  slug?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(2048)
  logo?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(20)
  organization_size?: string | null;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  timezone?: string;
}

/** `{role}` for workspace members, project members and invitations. */
export class RoleDto {
  @IsIn(ROLES, ROLE_MESSAGE)
  role: number;
}

export class InviteEntryDto {
  @Transform(trim)
  @IsEmail({}, { message: 'Enter a valid email address.' })
  @MaxLength(255)
  email: string;

  @IsOptionalNonNull()
  @IsIn(ROLES, ROLE_MESSAGE)
  role?: number;
}

/** `POST /api/workspaces/{slug}/invitations/`: `{emails: [{email, role}], message?}`. */
export class InviteDto implements InviteInput {
  @IsArray()
  @ArrayMinSize(1, { message: 'Emails are required.' })
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => InviteEntryDto)
  emails: InviteEntryDto[];

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(5000)
  message?: string;
}

/** Public join: `{email, accepted, token}`; `token` comes from the emailed link. */
export class JoinInvitationDto {
  @Transform(trim)
  @IsEmail({}, { message: 'Enter a valid email address.' })
  @MaxLength(255)
  email: string;

  @IsBoolean()
  accepted: boolean;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token: string;
}

export { CreateProjectDto as CreateAppProjectDto, UpdateProjectDto } from '../../shared/dto/project.dto';

export class ProjectMemberEntryDto {
  @IsUUID()
  member_id: string;

  @IsIn(ROLES, ROLE_MESSAGE)
  role: number;
}

/** `POST …/projects/{project_id}/members/`: `{members: [{member_id, role}]}`. */
export class AddProjectMembersDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ProjectMemberEntryDto)
  members: ProjectMemberEntryDto[];
}

/**
 * `PATCH /api/workspaces/{slug}/api-tokens/{id}/`: label, description, `is_active`, `expired_at`.
 * Anything else (the owner, workspace, digest, `is_service`, rate limit…) is a 422.
 */
export class UpdateApiTokenDto implements UpdateApiTokenInput {
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  label?: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @IsOptionalNonNull()
  @IsBoolean()
  is_active?: boolean;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Transform(toDate)
  @IsDate({ message: 'expired_at must be an ISO 8601 date or datetime.' })
  expired_at?: Date | null;
}
