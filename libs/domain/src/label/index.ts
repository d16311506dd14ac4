export { Label } from './label.entity';
export { LabelService } from './label.service';
export type { LabelInput } from './label.service';
export { labelView } from './label.view';
export { appLabelView } from './label.app-view';
export { LabelFeatureModule } from './label.module';
