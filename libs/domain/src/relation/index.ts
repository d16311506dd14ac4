export * from './issue-relation.entity';
export * from './issue-relation.service';
export * from './relation.module';
