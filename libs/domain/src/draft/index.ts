// The draft feature's door: what the API modules and the tests use.
export { DraftService } from './draft.service';
export type { DraftContext, DraftInput } from './draft.service';
export type { DraftJson } from './draft.view';
export { DraftIssue } from './draft-issue.entity';
export { DraftFeatureModule } from './draft.module';
