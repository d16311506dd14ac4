import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsUUID } from 'class-validator';
import { RELATION_TYPES, RelationType } from '#domain';

/**
 * `POST …/relations/` (`plane-node-sdk/dist/models/WorkItemRelation.d.ts`
 * WorkItemRelationCreateRequest): `{relation_type, issues[]}`, 1–100 work item ids.
 */
export class CreateRelationDto {
  @IsIn(RELATION_TYPES)
  relation_type: RelationType;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  issues: string[];
}

/** `POST …/relations/remove/` (the SDK's `relations.delete`): `{related_issue}`. */
export class RemoveRelationDto {
  @IsUUID()
  related_issue: string;
}
