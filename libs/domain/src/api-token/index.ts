export { ApiToken } from './api-token.entity';
export { ApiTokenService } from './api-token.service';
export type { ApiTokenJson, CreateApiTokenInput, UpdateApiTokenInput } from './api-token.service';
export { ApiTokenFeatureModule } from './api-token.module';
