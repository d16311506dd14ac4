import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ChangeBus } from './change-bus';

/** What every feature module may inject: the change bus (see `change-bus.ts`). */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [ChangeBus],
  exports: [ChangeBus],
})
export class KernelModule {}
