// The instance feature's door: what other features, the API modules, the CLI and the tests use.
export { InstanceAdminService } from './instance-admin.service';
export { InstanceSetupInput, setUpInstance } from './instance-setup';
export { InstanceService, UpdateInstanceInput } from './instance.service';
export { InstanceFeatureModule } from './instance.module';
