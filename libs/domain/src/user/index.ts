export * from './profile.entity';
export * from './user.entity';
export * from './user.view';
export * from './user-profile.service';
export * from './user.module';
