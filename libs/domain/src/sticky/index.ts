// The sticky feature's door: what other features, the API modules and the tests use.
export { StickyService } from './sticky.service';
export type { StickyInput } from './sticky.service';
export type { StickyJson } from './sticky.view';
export { StickyFeatureModule } from './sticky.module';
