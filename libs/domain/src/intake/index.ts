// The intake feature's door: what other features, the API modules and the tests use.
export { Intake } from './intake.entity';
export { INTAKE_STATUS, INTAKE_STATUSES, IntakeIssue } from './intake-issue.entity';
export { IntakeService } from './intake.service';
export type { IntakeInput, IntakeIssueFields, IntakeViewer } from './intake.service';
export { intakeIssueView } from './intake.view';
export type { IntakeObjectJson } from './intake-object.view';
export { appIntakeIssueView } from './intake.app-view';
export type { IntakeIssueJson } from './intake.view';
export type { IntakeListFilter, IntakeSourceRow } from './intake.repository';
export type { AppIntakeIssueDetailJson } from './intake.app-view';
export { IntakeFeatureModule } from './intake.module';
