export * from './mail.service';
export * from './mail.module';
