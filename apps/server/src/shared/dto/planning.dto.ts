import { Transform } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { IsFiniteInRange, IsOptionalNonNull, NullAsEmptyList, SORT_ORDER_MAX, SORT_ORDER_MIN } from '#common';
import { CycleInput, MODULE_STATUSES, ModuleInput, ModuleStatus } from '#domain';
import { ReadOnlyBase } from './read-only';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** A date `YYYY-MM-DD`, or an ISO 8601 datetime (its date is kept for modules). */
const DAY_OR_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const toDay = ({ value }: { value: unknown }) =>
  typeof value === 'string' && DAY_OR_TIME.test(value) ? value.slice(0, 10) : value;

/** Counts and other keys of a cycle or module that clients send back; accepted and ignored. */
class PlanningReadOnly extends ReadOnlyBase {
  @Allow() total_issues?: unknown;
  @Allow() completed_issues?: unknown;
  @Allow() cancelled_issues?: unknown;
  @Allow() started_issues?: unknown;
  @Allow() unstarted_issues?: unknown;
  @Allow() backlog_issues?: unknown;
  @Allow() total_estimates?: unknown;
  @Allow() completed_estimates?: unknown;
  @Allow() started_estimates?: unknown;
  @Allow() archived_at?: unknown;
  @Allow() project_id?: unknown;
}

/**
 * Property decorators applied as the same stack written on a property is (the last first), so that
 * the validation messages keep their order.
 */
const stack =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };

/** A nullable string of at most 255 characters (`external_source`, `external_id`). */
const NullableString255 = () =>
  stack(
    IsOptional(),
    ValidateIf((_, v) => v !== null),
    IsString(),
    MaxLength(255),
  );

/** A cycle's or module's `name`: trimmed, 1 to 255 characters. */
const PlanningName = () => stack(Transform(trim), IsString(), IsNotEmpty(), MaxLength(255));

/**
 * The fields cycles and modules share (Plane's `CycleSerializer`, `ModuleSerializer` take these
 * with the same rules), other than `name`; each kind adds its own dates and fields.
 */
class PlanningFieldsDto extends PlanningReadOnly {
  @IsOptionalNonNull()
  @IsString()
  description?: string;

  @IsOptionalNonNull()
  @IsObject()
  view_props?: Record<string, unknown>;

  @IsOptionalNonNull()
  @IsObject()
  logo_props?: Record<string, unknown>;

  /** A float from -1e12 to 1e12 (`SORT_ORDER_MIN`…`SORT_ORDER_MAX`); NaN, ±Infinity or beyond: 422. */
  @IsOptionalNonNull()
  @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX)
  sort_order?: number;

  @NullableString255()
  external_source?: string | null;

  @NullableString255()
  external_id?: string | null;
}

/**
 * Cycle fields other than `name` (Plane `plane/api/serializers/cycle.py` CycleSerializer;
 * `plane-node-sdk/dist/models/Cycle.d.ts` CreateCycleRequest).
 */
class CycleFieldsDto extends PlanningFieldsDto implements CycleInput {
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Matches(DAY_OR_TIME, { message: 'start_date must be a date as YYYY-MM-DD or an ISO 8601 datetime' })
  @IsISO8601({ strict: true })
  start_date?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Matches(DAY_OR_TIME, { message: 'end_date must be a date as YYYY-MM-DD or an ISO 8601 datetime' })
  @IsISO8601({ strict: true })
  end_date?: string | null;

  @IsOptionalNonNull()
  @IsUUID()
  owned_by?: string;

  @IsOptionalNonNull()
  @IsObject()
  progress_snapshot?: Record<string, unknown>;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  timezone?: string;

  @Allow() version?: unknown;
}

/** `PATCH …/cycles/{cycle_id}/`. */
export class UpdateCycleDto extends CycleFieldsDto {
  @IsOptionalNonNull()
  @PlanningName()
  name?: string;
}

/** `POST …/cycles/`: `name` required; `project_id` (required by the SDK's type, sent by MCP) is accepted and ignored: the path names the project. */
export class CreateCycleDto extends CycleFieldsDto {
  @PlanningName()
  name: string;
}

/** `{issues: [ids]}` for `cycle-issues/` and `module-issues/`. */
export class WorkItemIdsDto {
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  issues: string[];
}

/** `{new_cycle_id}` for `transfer-issues/`. */
export class TransferDto {
  @IsOptionalNonNull()
  @IsUUID()
  new_cycle_id?: string;
}

/**
 * Module fields other than `name` (Plane `plane/api/serializers/module.py` ModuleSerializer;
 * `plane-node-sdk/dist/models/Module.d.ts` CreateModuleRequest).
 */
class ModuleFieldsDto extends PlanningFieldsDto implements ModuleInput {
  @Allow()
  description_text?: unknown;

  @Allow()
  description_html?: unknown;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Transform(toDay)
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'start_date must be a date as YYYY-MM-DD' })
  @IsISO8601({ strict: true })
  start_date?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Transform(toDay)
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'target_date must be a date as YYYY-MM-DD' })
  @IsISO8601({ strict: true })
  target_date?: string | null;

  @IsOptionalNonNull()
  @IsIn(MODULE_STATUSES)
  status?: ModuleStatus;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  lead?: string | null;

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUUID('all', { each: true })
  members?: string[];
}

/** `PATCH …/modules/{module_id}/`. */
export class UpdateModuleDto extends ModuleFieldsDto {
  @IsOptionalNonNull()
  @PlanningName()
  name?: string;
}

/** `POST …/modules/`: `name` required. */
export class CreateModuleDto extends ModuleFieldsDto {
  @PlanningName()
  name: string;
}

/** `POST cycles/date-check/` (Plane's `CycleDateCheckEndpoint`): the days to check, and the cycle being edited to leave out. */
export class CycleDateCheckDto {
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  start_date?: string;

  @IsOptionalNonNull()
  @IsString()
  @MaxLength(64)
  end_date?: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  cycle_id?: string | null;
}
