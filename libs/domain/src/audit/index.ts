// The audit room's door: what the API modules and the tests use.
export { AuditService, screenMetadata } from './audit.service';
export type { AuditFilters } from './audit.repository';
export type { AuditLogJson } from './audit.view';
export { AuditFeatureModule } from './audit.module';
export { AUDIT_EVENTS, recordAudit, auditActorById } from '../kernel/audit';
export type { AuditEntry, AuditEventName } from '../kernel/audit';
