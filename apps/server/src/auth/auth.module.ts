import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { AuthController } from './auth.controller';

/** Authentication module, mounted at `/auth/`. */
@Module({ imports: [DomainModule], controllers: [AuthController] })
export class AuthModule {}
