import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { InstanceAdminWebController } from './instance-admin-web.controller';
import { InstanceAdminController, InstanceController } from './instance.controller';

/**
 * Instance API, mounted at `/api/instances/`: the public instance description, the first set-up,
 * instance admin sign-in and sessions, admins, configuration and the instance's workspaces.
 */
@Module({
  imports: [DomainModule],
  controllers: [InstanceController, InstanceAdminController, InstanceAdminWebController],
})
export class InstanceModule {}
