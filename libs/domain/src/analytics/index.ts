// The analytics feature's door: what other features, the API modules and the tests use.
export { AnalyticView } from './analytic-view.entity';
export { AnalyticsService, analyticViewJson } from './analytics.service';
export type { AnalyticViewInput, Chart, ChartParams } from './analytics.service';
export { ANALYTICS_AXES, ANALYTICS_MEASURES } from './analytics.repository';
export type { AnalyticsScope, ChartRow } from './analytics.repository';
export { AnalyticsFeatureModule } from './analytics.module';
