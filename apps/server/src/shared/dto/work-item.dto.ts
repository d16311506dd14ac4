import { Transform } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import {
  EmptyAsNull,
  IsFiniteInRange,
  IsOptionalNonNull,
  NullAsEmptyList,
  SORT_ORDER_MAX,
  SORT_ORDER_MIN,
} from '#common';
import { CommentInput, IssueInput, LinkInput, Priority, PRIORITIES } from '#domain';
import { ReadOnlyBase } from '../../shared/dto/read-only';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The fields a work item and a draft work item share, with the same rules and messages (Plane's
 * `IssueSerializer` and `DraftIssueCreateSerializer` take them alike): the work item DTOs below and
 * the App API's `DraftIssueDto` (`app-api/dto/draft.dto.ts`) extend it. Read-only keys
 * (`sequence_id`, `completed_at`, `archived_at`, `description_binary`, `description_stripped`, and
 * `ReadOnlyBase`'s) are accepted and ignored.
 */
export class WorkItemSharedFieldsDto extends ReadOnlyBase {
  @IsOptionalNonNull()
  @IsString()
  description_html?: string;

  @IsOptionalNonNull()
  @IsIn(PRIORITIES)
  priority?: Priority;

  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  estimate_point?: string | null;

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

  /** A float from -1e12 to 1e12 (`SORT_ORDER_MIN`…`SORT_ORDER_MAX`); NaN, ±Infinity or beyond: 422. */
  @IsOptionalNonNull()
  @IsFiniteInRange(SORT_ORDER_MIN, SORT_ORDER_MAX)
  sort_order?: number;

  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  type_id?: string | null;

  @Allow() sequence_id?: unknown;
  @Allow() completed_at?: unknown;
  @Allow() archived_at?: unknown;
  @Allow() description_binary?: unknown;
  @Allow() description_stripped?: unknown;
}

/**
 * `PATCH …/issues|work-items/{id}/` (Plane `plane/api/serializers/issue.py` IssueSerializer; the
 * clients' `plane-node-sdk/dist/models/WorkItem.d.ts`, `plane-mcp-server/build/schemas.js` Issue):
 * the shared fields and the v1 names. `module` (SDK) is accepted and ignored until modules exist.
 */
class WorkItemFieldsDto extends WorkItemSharedFieldsDto implements IssueInput {
  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  state?: string | null;

  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  parent?: string | null;

  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(12)
  point?: number | null;

  @IsOptionalNonNull()
  @IsBoolean()
  is_draft?: boolean;

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

  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  type?: string | null;

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUUID('all', { each: true })
  assignees?: string[];

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUUID('all', { each: true })
  labels?: string[];

  @IsOptional()
  @EmptyAsNull()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  module?: string | null;
}

/** `PATCH …/issues|work-items/{id}/`. */
export class UpdateWorkItemDto extends WorkItemFieldsDto {
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;
}

/** `POST …/issues|work-items/`: `name` required. */
export class CreateWorkItemDto extends WorkItemFieldsDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;
}

/** Comments (Plane `plane/api/serializers/issue.py` IssueCommentSerializer); no field is required. */
export class CommentDto extends ReadOnlyBase implements CommentInput {
  @IsOptionalNonNull()
  @IsString()
  comment_html?: string;

  @IsOptionalNonNull()
  comment_json?: unknown;

  @IsOptionalNonNull()
  @IsIn(['INTERNAL', 'EXTERNAL'])
  access?: 'INTERNAL' | 'EXTERNAL';

  @IsOptional()
  @NullAsEmptyList()
  @IsArray()
  @IsUrl({ require_tld: false }, { each: true })
  attachments?: string[];

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

  @Allow() issue?: unknown;
  @Allow() actor?: unknown;
  @Allow() edited_at?: unknown;
  @Allow() comment_stripped?: unknown;
  @Allow() is_member?: unknown;
}

/** Link fields other than `url` (Plane `plane/api/serializers/issue.py` IssueLinkSerializer). */
class LinkFieldsDto extends ReadOnlyBase implements LinkInput {
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(255)
  title?: string | null;

  @IsOptionalNonNull()
  @IsObject()
  metadata?: Record<string, unknown>;

  @Allow() issue?: unknown;
}

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/** `PATCH …/links/{link_id}/`: an http(s) URL. */
export class UpdateLinkDto extends LinkFieldsDto {
  @IsOptionalNonNull()
  @IsString()
  @IsUrl(URL_OPTIONS, { message: 'url must be an http(s) URL' })
  url?: string;
}

/** `POST …/links/`: `url` required. */
export class CreateLinkDto extends LinkFieldsDto {
  @IsString()
  @IsUrl(URL_OPTIONS, { message: 'url must be an http(s) URL' })
  url: string;
}
