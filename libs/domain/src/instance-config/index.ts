// The instance-config feature's door: what other features, the API modules and the tests use.
export { ConfigurationEntry, InstanceSettings, SmtpSettings } from './instance-settings.service';
export { SecretBox } from './secret-box';
export { InstanceConfigFeatureModule } from './instance-config.module';
