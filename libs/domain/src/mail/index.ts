// The mail feature's door: what other features and the tests use.
export { MailService } from './mail.service';
export { MailFeatureModule } from './mail.module';
