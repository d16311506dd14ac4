import { IsBoolean, IsOptional, IsUUID, ValidateBy, ValidateIf } from 'class-validator';
import type { DeployBoardInput } from '#domain';
import { IsOptionalNonNull } from '#common';

const LAYOUTS = ['list', 'kanban', 'calendar', 'gantt', 'spreadsheet'];

/** An object of layout flags: only Plane's layouts, each true or false. */
const IsLayoutMap = () =>
  ValidateBy({
    name: 'isLayoutMap',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.entries(value).every(([k, v]) => LAYOUTS.includes(k) && typeof v === 'boolean'),
      defaultMessage: () => `$property must be an object of booleans with keys among ${LAYOUTS.join(', ')}.`,
    },
  });

/**
 * `POST` and `PATCH …/project-deploy-boards/` (Plane `plane/app/views/project/base.py` DeployBoardViewSet):
 * the board's settings; `views` (Plane's publish body) and `view_props` (the stored name) are the
 * same layout map.
 */
export class DeployBoardDto implements DeployBoardInput {
  @IsOptionalNonNull()
  @IsBoolean()
  is_comments_enabled?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  is_reactions_enabled?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  is_votes_enabled?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  is_activity_enabled?: boolean;

  @IsOptionalNonNull()
  @IsBoolean()
  is_disabled?: boolean;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  intake?: string | null;

  @IsOptionalNonNull()
  @IsLayoutMap()
  views?: Record<string, boolean>;

  @IsOptionalNonNull()
  @IsLayoutMap()
  view_props?: Record<string, boolean>;
}
