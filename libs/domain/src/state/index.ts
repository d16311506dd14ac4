export * from './default-states';
export * from './state.entity';
export * from './state.service';
export * from './state.view';
export * from './state.module';
