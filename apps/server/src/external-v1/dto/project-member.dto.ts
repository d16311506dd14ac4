import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOptionalNonNull } from '#common';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * `POST /api/v1/workspaces/{slug}/projects/{project_id}/members/` (Plane `plane/api/views/member.py`
 * ProjectMemberAPIEndpoint.post): `{email, display_name, first_name?, last_name?, role?}`; `role` is
 * 5, 15 or 20 (default 5).
 */
export class AddProjectMemberByEmailDto {
  @Transform(trim)
  @IsEmail({}, { message: 'Enter a valid email address.' })
  @MaxLength(255)
  email: string;

  @IsString()
  @MinLength(1)
  @MaxLength(255)
  display_name: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  first_name?: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  last_name?: string;

  @IsOptionalNonNull()
  @IsIn([5, 15, 20], { message: 'role must be one of 5 (Guest), 15 (Member) or 20 (Admin).' })
  role?: number;
}
