import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ChangeBus } from './change-bus';
import { PasswordHashCostSetting } from './password';

/**
 * What every feature module may inject: the change bus (see `change-bus.ts`). Also applies the
 * configured password hash cost (`password.ts`).
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ChangeBus, PasswordHashCostSetting],
  exports: [ChangeBus],
})
export class KernelModule {}
