export * from './issue-relation.entity';
export * from './issue-relation.service';
