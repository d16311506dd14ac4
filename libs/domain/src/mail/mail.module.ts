import { Module } from '@nestjs/common';
import { InstanceConfigFeatureModule } from '../instance-config';
import { MailService } from './mail.service';

/** The mail feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [InstanceConfigFeatureModule],
  providers: [MailService],
  exports: [MailService],
})
export class MailFeatureModule {}
