// The module feature's door: what other features, the API modules and the tests use.
export { Module, MODULE_STATUSES } from './module.entity';
export type { ModuleStatus } from './module.entity';
export { ModuleIssue } from './module-issue.entity';
export { ModuleMember } from './module-member.entity';
export { ModuleService } from './module.service';
export { ModuleLinkService } from './module-link.service';
export type { ModuleLinkInput } from './module-link.service';
export { ModuleLink } from './module-link.entity';
export type { ModuleInput } from './module.service';
export { moduleView } from './module.view';
export { ModuleFeatureModule } from './module.module';
export type { ModuleJson } from './module.view';
export type { AppModuleJson } from './module.app-view';
