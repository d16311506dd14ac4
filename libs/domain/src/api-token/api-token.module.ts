import { Module } from '@nestjs/common';
import { ApiTokenRepository } from './api-token.repository';
import { ApiTokenService } from './api-token.service';

/** The api-token feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [ApiTokenRepository, ApiTokenService],
  exports: [ApiTokenService],
})
export class ApiTokenFeatureModule {}
