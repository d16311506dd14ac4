import { Module } from '@nestjs/common';

/** Instance API, mounted at `/api/instances/`: instance set-up and administration. No routes yet. */
@Module({})
export class InstanceModule {}
