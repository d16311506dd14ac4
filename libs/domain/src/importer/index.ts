// The importer feature's door: what the CLI's importers use.
export { ImporterService } from './importer.service';
export type { ExternalKind } from './importer.service';
export { ImporterFeatureModule } from './importer.module';
