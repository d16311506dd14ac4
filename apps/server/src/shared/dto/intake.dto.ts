import { Type } from 'class-transformer';
import {
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { INTAKE_STATUSES, IntakeInput, IntakeIssueFields, Priority, PRIORITIES } from '#domain';
import { ReadOnlyBase } from './read-only';
import { IsOptionalNonNull } from '#common';

/** The work item part of an intake item (the SDK's `WorkItemForIntakeRequest`, plus Plane's `description`). */
export class IntakeWorkItemFieldsDto implements IntakeIssueFields {
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  name?: string;

  @IsOptionalNonNull()
  @IsString()
  description_html?: string;

  @IsOptionalNonNull()
  @IsObject()
  description?: Record<string, unknown>;

  @IsOptionalNonNull()
  @IsIn(PRIORITIES)
  priority?: Priority;
}

/**
 * `POST|PATCH …/intake-issues/` (Plane `plane/api/views/intake.py`; `plane-node-sdk/dist/models/Intake.d.ts`).
 * `status` is one of −2 pending, −1 declined, 0 snoozed, 1 accepted, 2 duplicate. Read-only keys are ignored.
 */
export class IntakeDto extends ReadOnlyBase implements IntakeInput {
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => IntakeWorkItemFieldsDto)
  issue?: IntakeWorkItemFieldsDto;

  @IsOptionalNonNull()
  @IsIn(INTAKE_STATUSES)
  status?: number;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsISO8601({ strict: true })
  snoozed_till?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  duplicate_to?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  source?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  source_email?: string | null;

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

  @IsOptionalNonNull()
  @IsObject()
  extra?: Record<string, unknown>;

  // the intake id (Plane writes it; Meridian has one intake per project): accepted, ignored
  @IsOptionalNonNull()
  @IsUUID()
  intake?: string;
}

/** `PATCH …/intake-issues/{issue_id}/status/` (the SDK's `UpdateIntakeStatusRequest`). */
export class IntakeStatusDto implements IntakeInput {
  @IsIn(INTAKE_STATUSES)
  status: number;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsISO8601({ strict: true })
  snoozed_till?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  duplicate_to?: string | null;
}
