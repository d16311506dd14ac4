// The relation feature's door: what other features, the API modules and the tests use.
export { RELATION_TYPES } from './issue-relation.entity';
export type { RelationType } from './issue-relation.entity';
export { IssueRelationService } from './issue-relation.service';
export type { RelatedIssueJson, RelationsJson } from './relation.view';
export { RelationFeatureModule } from './relation.module';
