import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayNotEmpty,
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
  ValidateNested,
} from 'class-validator';
import { BulkIssueProperties, IssueInput, Priority, PRIORITIES } from '#domain';
import { CreateWorkItemDto, UpdateWorkItemDto } from '../../shared/dto/work-item.dto';
import { EmptyAsNull, IsOptionalNonNull, NullAsEmptyList } from '#common';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The App API's names for work item fields (Plane's `IssueCreateSerializer`): `state_id`,
 * `parent_id`, `label_ids`, `assignee_ids`, besides the v1 names. The App list's read-only keys
 * (counts, `project_id`, `cycle_id`, `module_ids`) are accepted and ignored, because the web app
 * sends back objects it read; cycles and modules are set through their own routes.
 */
interface AppWorkItemAliases {
  state_id?: string | null;
  parent_id?: string | null;
  label_ids?: string[];
  assignee_ids?: string[];
  project_id?: unknown;
  workspace_id?: unknown;
  cycle_id?: unknown;
  module_ids?: unknown;
  sub_issues_count?: unknown;
  link_count?: unknown;
  attachment_count?: unknown;
}

/** Folds the App aliases into the domain's input (an alias wins over the v1 name when both are sent). */
export function appIssueInput<T extends IssueInput>(body: T & AppWorkItemAliases): T {
  const {
    state_id,
    parent_id,
    label_ids,
    assignee_ids,
    project_id,
    workspace_id,
    cycle_id,
    module_ids,
    sub_issues_count,
    link_count,
    attachment_count,
    ...rest
  } = body;
  void project_id;
  void workspace_id;
  void cycle_id;
  void module_ids;
  void sub_issues_count;
  void link_count;
  void attachment_count;
  const input = { ...rest } as T;
  if (state_id !== undefined) input.state = state_id;
  if (parent_id !== undefined) input.parent = parent_id;
  if (label_ids !== undefined) input.labels = label_ids;
  if (assignee_ids !== undefined) input.assignees = assignee_ids;
  return input;
}

/** `POST /api/…/issues/`: `name` required; v1 names or App aliases. */
export class AppCreateWorkItemDto extends CreateWorkItemDto {
  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  state_id?: string | null;

  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  parent_id?: string | null;

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUUID('all', { each: true })
  label_ids?: string[];

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUUID('all', { each: true })
  assignee_ids?: string[];

  @Allow() project_id?: unknown;
  @Allow() workspace_id?: unknown;
  @Allow() cycle_id?: unknown;
  @Allow() module_ids?: unknown;
  @Allow() sub_issues_count?: unknown;
  @Allow() link_count?: unknown;
  @Allow() attachment_count?: unknown;
}

/** `PATCH /api/…/issues/{issue_id}/`: any field; v1 names or App aliases. */
export class AppUpdateWorkItemDto extends UpdateWorkItemDto {
  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  state_id?: string | null;

  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  parent_id?: string | null;

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUUID('all', { each: true })
  label_ids?: string[];

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUUID('all', { each: true })
  assignee_ids?: string[];

  @Allow() project_id?: unknown;
  @Allow() workspace_id?: unknown;
  @Allow() cycle_id?: unknown;
  @Allow() module_ids?: unknown;
  @Allow() sub_issues_count?: unknown;
  @Allow() link_count?: unknown;
  @Allow() attachment_count?: unknown;
}

/** `{issue_ids}`: 1–1000 work item ids (`bulk-delete-issues/`, `bulk-archive-issues/`). */
export class WorkItemIdsDto {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  issue_ids: string[];
}

/** `properties` of `bulk-operation-issues/` (Plane's `BulkIssueOperationsEndpoint`). */
export class BulkPropertiesDto implements BulkIssueProperties {
  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  state_id?: string | null;

  @IsOptionalNonNull()
  @IsIn(PRIORITIES)
  priority?: Priority;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Matches(DATE, { message: 'start_date must be a date as YYYY-MM-DD' })
  @IsISO8601({ strict: true })
  start_date?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Matches(DATE, { message: 'target_date must be a date as YYYY-MM-DD' })
  @IsISO8601({ strict: true })
  target_date?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  estimate_point?: string | null;

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUUID('all', { each: true })
  label_ids?: string[];

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUUID('all', { each: true })
  assignee_ids?: string[];
}

/** `POST bulk-operation-issues/` `{issue_ids, properties}`. */
export class BulkOperationDto extends WorkItemIdsDto {
  @IsObject()
  @ValidateNested()
  @Type(() => BulkPropertiesDto)
  properties: BulkPropertiesDto;
}

/** `POST issues/{id}/sub-issues/` `{sub_issue_ids}`. */
export class SubWorkItemsDto {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  sub_issue_ids: string[];
}

/** `POST issues/{id}/modules/` `{modules, removed_modules}` (Plane's `IssueModuleViewSet.create_issue_modules`). */
export class WorkItemModulesDto {
  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  modules?: string[];

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  removed_modules?: string[];
}

/** `POST …/reactions/` `{reaction}`: an emoji code as Plane stores it (e.g. `"128077"`). */
export class ReactionDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  reaction: string;
}

/** One entry of `issue-dates/`: a work item and its new dates (a missing or null date stays as it is). */
export class WorkItemDatesDto {
  @IsUUID()
  id: string;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Matches(DATE, { message: 'start_date must be a date as YYYY-MM-DD' })
  @IsISO8601({ strict: true })
  start_date?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @Matches(DATE, { message: 'target_date must be a date as YYYY-MM-DD' })
  @IsISO8601({ strict: true })
  target_date?: string | null;
}

/** `POST issue-dates/` `{updates}` (Plane's `IssueBulkUpdateDateEndpoint`): at most 1000; none is a no-op, as in Plane. */
export class BulkWorkItemDatesDto {
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => WorkItemDatesDto)
  updates?: WorkItemDatesDto[];
}
