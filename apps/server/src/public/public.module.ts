import { Module } from '@nestjs/common';

/** Public API, mounted at `/api/public/`: published deploy boards. No routes yet. */
@Module({})
export class PublicModule {}
