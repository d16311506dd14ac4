// The automation feature's door: the daily archive-and-close a job runner calls.
export { ArchiveAndCloseService } from './archive-and-close.service';
export type { ArchiveAndCloseResult } from './archive-and-close.service';
export { AutomationFeatureModule } from './automation.module';
