// The view feature's door: what other features, the API modules and the tests use.
export { IssueView, VIEW_ACCESS } from './issue-view.entity';
export { ViewService } from './view.service';
export type { ViewInput, ViewScope } from './view.service';
export type { AppViewJson } from './view.app-view';
export { ViewFeatureModule } from './view.module';
// a saved view's filters: checked, compiled to list filters and to Plane's `query` (the saved charts use them too)
export { assertViewFilters, planeQuery, viewIssueFilters } from './view-filters';
