import { Type } from 'class-transformer';
import { Allow, IsIn, IsNotEmpty, IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IntakeWorkItemFieldsDto } from '../../shared/dto/intake.dto';
import type { PublicCommentInput } from '#domain';
import { IsOptionalNonNull } from '#common';

/** `POST …/comments/` (Plane `plane/space/views/issue.py` IssueCommentPublicViewSet): the text; access is always EXTERNAL. */
export class CreatePublicCommentDto implements PublicCommentInput {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100_000)
  comment_html: string;

  @IsOptionalNonNull()
  @IsObject()
  comment_json?: Record<string, unknown>;
}

/** `PATCH …/comments/{id}/`: the author's new text. */
export class UpdatePublicCommentDto implements PublicCommentInput {
  @IsOptionalNonNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100_000)
  comment_html?: string;

  @IsOptionalNonNull()
  @IsObject()
  comment_json?: Record<string, unknown>;
}

/** `POST …/reactions/`: an emoji code, as Plane's web app sends it (e.g. `128077`, or the emoji itself). */
export class ReactionDto {
  @IsString()
  @Matches(/^\S{1,20}$/u, { message: 'reaction must be an emoji code of 1 to 20 characters without spaces.' })
  reaction: string;
}

/** `POST …/votes/`: +1 or −1. */
export class VoteDto {
  @IsIn([1, -1], { message: 'vote must be 1 or -1.' })
  vote: 1 | -1;
}

/**
 * `POST …/intakes/{intake_id}/intake-issues/` (Plane `plane/space/views/intake.py`
 * IntakeIssuePublicViewSet.create): `{issue: {name, description_html?, description?, priority?}}`;
 * `source` is accepted and ignored (a visitor's item is always `IN_APP`).
 */
export class PublicIntakeDto {
  @IsOptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => IntakeWorkItemFieldsDto)
  issue?: IntakeWorkItemFieldsDto;

  @Allow() source?: unknown;
}
