import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ChangeBus } from './change-bus';
import { HardDeleteJob } from './jobs/hard-delete.job';
import { JobRunner } from './jobs/job-runner';
import { PasswordHashCostSetting } from './password';

/**
 * What every feature module may inject: the change bus (see `change-bus.ts`) and the job runner
 * (`jobs/job-runner.ts`: scheduled jobs and the background workers' one loop; the kernel's own
 * job is `hard-delete`). Also applies the configured password hash cost (`password.ts`).
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ChangeBus, PasswordHashCostSetting, JobRunner, HardDeleteJob],
  exports: [ChangeBus, JobRunner],
})
export class KernelModule {}
