export * from './api-token.entity';
export * from './api-token.service';
export * from './api-token.view';
export * from './api-token.module';
