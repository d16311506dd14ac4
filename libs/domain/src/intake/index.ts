export * from './intake.entity';
export * from './intake.service';
