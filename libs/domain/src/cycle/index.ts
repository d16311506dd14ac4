// The cycle feature's door: what other features, the API modules and the tests use.
export { Cycle } from './cycle.entity';
export { PlanningEntity } from './planning.entity';
export { CycleIssue } from './cycle-issue.entity';
export { CYCLE_VIEWS, CycleService } from './cycle.service';
export type { CycleInput, CycleView } from './cycle.service';
export { cycleView, planningLinkView, ZERO_COUNTS } from './cycle.view';
export type { EstimatePointSums, IssueCounts } from './cycle.view';
export type { CycleAnalytics } from './cycle.service';
export { burndown, dayIn, MAX_CHART_DAYS } from './burndown';
export { distribution } from './distribution.repository';
export type { DayAmount, Distribution, DistributionRow, DistributionUnit } from './distribution.repository';
export { PlanningRepository } from './planning.repository';
export type { PlanningKind } from './planning.repository';
export { favoritesFirst, PlanningService, renderPage } from './planning.service';
export { CycleFeatureModule } from './cycle.module';
