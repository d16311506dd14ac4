// The exporter feature's door: what other features, the API modules and the tests use.
export { ExporterHistory, EXPORT_PROVIDERS, EXPORT_STATUSES } from './exporter-history.entity';
export type { ExportProvider, ExportStatus } from './exporter-history.entity';
export { ExporterService, exportJson } from './exporter.service';
export type { ExportRequest } from './exporter.service';
export { EXPORT_HEADER } from './export-files';
export { ExporterFeatureModule } from './exporter.module';
