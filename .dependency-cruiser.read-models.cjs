// The read models of work items and the issue room's read contract, shared by .dependency-cruiser.cjs
// (which rooms' doors a repository may import) and eslint.config.mjs (which names of the issue door
// a read model may import). See docs/architecture.md, "Reading another room's rows".

/**
 * The issue room's read contract: what its door publishes for the statements of other rooms that
 * read work items to compose (libs/domain/src/issue/index.ts): visibility (the live project, the
 * visible work item, triage), the Guest rule, the visible work items' query and the filter
 * compiler with its binders, and which filters the visible work items' tallies answer
 * (`talliedFilters`: a chart by state or priority sums `project_issue_tallies` instead of counting
 * every work item, issue #40). A read model imports these names alone from the issue door at run
 * time (types of any door are free).
 */
const ISSUE_READ_CONTRACT = [
  'LIVE_PROJECT',
  'VISIBLE_ISSUE',
  'notInTriage',
  'tallyProjects',
  'guestRule',
  'guestCondition',
  'visibleIssuesQuery',
  'issueFilterConditions',
  'talliedFilters',
  'bindNamed',
  'bindPositional',
];

/**
 * The read-model repositories (paths under libs/domain/src/): reporting and delivery statements
 * over work items that compose the issue room's read contract with other rooms' tables in one
 * statement, where splitting the statement through the owners' doors would read every row twice or
 * lose the aggregate. Each may import the issue room's door at run time (for its read contract)
 * and no other room's door; whatever else it needs of another room's rows (a user, a state, a
 * project) its service reads through that room's door. The list grows only with a reason here and
 * in docs/architecture.md.
 */
const READ_MODEL_REPOSITORIES = [
  // workspace analytics and the dashboards: one aggregate per chart, filtered, under the Guest rule
  'analytics/analytics.repository.ts',
  // the daily archive-and-close: the work items it takes (state group, cycle, module, triage), locked
  'automation/automation.repository.ts',
  // a cycle's or module's distribution: per assignee and per label, and the burndown, one aggregate each
  'cycle/distribution.repository.ts',
  // email notifications: who may be mailed about a work item, and what a mail shows of it
  'email-notification/email-notification.repository.ts',
  // exports: the work items of a project with their state, people, labels, cycle and modules, by batch
  'exporter/exporter.repository.ts',
  // the inbox: one paginated statement with the Guest rule and the assigned/created/subscribed filters
  'notification/notification.repository.ts',
  // the profile pages: one aggregate per figure over the work items the viewer may see
  'workspace-profile/workspace-profile.repository.ts',
];

module.exports = { ISSUE_READ_CONTRACT, READ_MODEL_REPOSITORIES };
