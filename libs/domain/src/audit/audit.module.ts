import { Module } from '@nestjs/common';
import { AuditJobs } from './audit.jobs';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/**
 * The audit log (docs/audit.md): the `audit.recorded` listener, the reads, the retention job. The
 * lowest room: writers record through the kernel (`recordAudit`), never through this door.
 */
@Module({
  providers: [AuditRepository, AuditService, AuditJobs],
  exports: [AuditService],
})
export class AuditFeatureModule {}
