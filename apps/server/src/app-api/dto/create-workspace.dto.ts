import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { CreateWorkspaceInput } from '#domain';
import { IsOptionalNonNull } from '#common';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** `POST /api/workspaces/` (Plane `plane/app/views/workspace/base.py` WorkSpaceViewSet.create). */
export class CreateWorkspaceDto implements CreateWorkspaceInput {
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
