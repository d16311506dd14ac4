export { DEFAULT_STATES, slugify } from './default-states';
export { State, STATE_GROUPS } from './state.entity';
export type { StateGroup } from './state.entity';
export { StateService } from './state.service';
export type { StateInput } from './state.service';
export { stateLiteView } from './state.view';
export { appStateView } from './state.app-view';
export { StateFeatureModule } from './state.module';
