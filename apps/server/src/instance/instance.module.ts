import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { InstanceAuditLogsController } from './audit-logs.controller';
import { InstanceAdminWebController } from './instance-admin-web.controller';
import { InstanceAdminController, InstanceController } from './instance.controller';
import { SsoConnectionsController } from './sso-connections.controller';

/**
 * Instance API, mounted at `/api/instances/`: the public instance description, the first set-up,
 * instance admin sign-in and sessions, admins, configuration, the instance's workspaces, its SSO connections
 * and the audit log.
 */
@Module({
  imports: [DomainModule],
  controllers: [
    SsoConnectionsController,
    InstanceController,
    InstanceAdminController,
    InstanceAdminWebController,
    InstanceAuditLogsController,
  ],
})
export class InstanceModule {}
