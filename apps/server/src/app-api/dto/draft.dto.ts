import { Transform, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { EmptyAsNull, IsOptionalNonNull, NullAsEmptyList } from '#common';
import { DraftInput } from '#domain';
import { WorkItemSharedFieldsDto } from '../../shared/dto/work-item.dto';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * A draft work item's fields (Plane 0.25.3 `plane/app/serializers/draft.py`
 * DraftIssueCreateSerializer), every one optional, for `POST`/`PATCH …/draft-issues/` and the body
 * of `POST …/draft-to-issue/{id}/` (whose given fields override the draft's). The fields it shares
 * with a work item (description, priority, estimate point, dates, sort order, type) are the work
 * item DTO's (`WorkItemSharedFieldsDto`: the same rules and messages); the rest use the App API's
 * names. The keys of the objects the web app sends back (counts, `is_draft`, `sequence_id`, …) are
 * accepted and ignored.
 */
export class DraftIssueDto extends WorkItemSharedFieldsDto implements DraftInput {
  @IsOptional()
  @Transform(trim)
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  name?: string | null;

  @IsOptionalNonNull()
  @IsObject()
  description?: Record<string, unknown>;

  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  project_id?: string | null;

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
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  label_ids?: string[];

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  assignee_ids?: string[];

  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  cycle_id?: string | null;

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true })
  module_ids?: string[];

  @Allow() is_draft?: unknown;
  @Allow() workspace_id?: unknown;
  @Allow() sub_issues_count?: unknown;
  @Allow() link_count?: unknown;
  @Allow() attachment_count?: unknown;
  @Allow() type?: unknown;
}

/** Folds the DTO into the domain's input (the accepted read-only keys left out). */
export function draftInput(body: DraftIssueDto): DraftInput {
  const keys: Array<keyof DraftInput> = [
    'name',
    'description_html',
    'description',
    'priority',
    'project_id',
    'state_id',
    'parent_id',
    'estimate_point',
    'start_date',
    'target_date',
    'sort_order',
    'type_id',
    'label_ids',
    'assignee_ids',
    'cycle_id',
    'module_ids',
  ];
  const out: Record<string, unknown> = {};
  for (const k of keys) if (body[k] !== undefined) out[k] = body[k];
  return out as DraftInput;
}

/** One item of `bulk-create-labels/` `label_data` (Plane reads `name` and `description`). */
export class BulkLabelItemDto {
  @IsOptionalNonNull()
  @IsString()
  @MaxLength(255)
  name?: string;

  @IsOptionalNonNull()
  @IsString()
  description?: string;
}

/** `POST bulk-create-labels/` `{label_data: [{name, description}]}`: at most 1000 items. */
export class BulkCreateLabelsDto {
  @IsOptionalNonNull()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => BulkLabelItemDto)
  label_data?: BulkLabelItemDto[];
}
