// The estimate feature's door: what other features, the API modules and the tests use.
export { ESTIMATE_TYPES } from './estimate.entity';
export type { EstimateType } from './estimate.entity';
export { EstimateService } from './estimate.service';
export type { EstimateInput, EstimatePointInput } from './estimate.service';
export { EstimateFeatureModule } from './estimate.module';
