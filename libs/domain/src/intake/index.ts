export * from './intake.entity';
export * from './intake.service';
export * from './intake.module';
