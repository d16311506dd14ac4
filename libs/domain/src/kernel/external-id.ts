import { MeridianError } from '#common';
import { EntityManager, EntityTarget, IsNull, Not, ObjectLiteral } from 'typeorm';

/**
 * Plane's external-id rule (the `external_id` checks of Plane `plane/api/views/state.py`,
 * `issue.py`): inside a project, a live object of one kind may carry a given `external_source` +
 * `external_id` pair only once. A clash is a 409 `EXTERNAL_ID_TAKEN` whose `id` names the object that
 * holds the pair.
 */
export async function assertExternalIdFree<T extends ObjectLiteral>(
  em: EntityManager,
  entity: EntityTarget<T>,
  projectId: string,
  externalSource: string | null | undefined,
  externalId: string | null | undefined,
  exceptId?: string,
): Promise<void> {
  if (!externalId) return;
  const where: Record<string, unknown> = { projectId, externalId, externalSource: externalSource ?? IsNull() };
  if (exceptId) where.id = Not(exceptId);
  const found = await em.getRepository(entity).findOne({ where: where as never, select: { id: true } as never });
  if (found) throw new MeridianError('EXTERNAL_ID_TAKEN', undefined, { id: (found as unknown as { id: string }).id });
}

/**
 * `external_id` → id of the live rows of `entity` that came from `source` (`external_source`),
 * inside one workspace (`scope: 'workspace_id'`) or one project (`'project_id'`); rows without an
 * `external_id` are left out. The origin records an import (`meridian import plane`) dedupes on;
 * each owning room's repository runs it over its own entity.
 */
export async function externalIdMap<T extends ObjectLiteral>(
  em: EntityManager,
  entity: EntityTarget<T>,
  scope: 'workspace_id' | 'project_id',
  scopeId: string,
  source: string,
): Promise<Map<string, string>> {
  const rows = await em
    .createQueryBuilder()
    .select(['e.id AS id', 'e.external_id AS external_id'])
    .from(entity, 'e')
    .where(`e.${scope} = :scopeId AND e.external_source = :source AND e.external_id IS NOT NULL`, {
      scopeId,
      source,
    })
    .andWhere('e.deleted_at IS NULL')
    .getRawMany<{ id: string; external_id: string }>();
  return new Map(rows.map((r) => [r.external_id, r.id]));
}

/**
 * The live rows of `entity` in the project by `name` (id and `external_id`): a project's states or
 * labels, which an import adopts by name when the source has one of the same name.
 */
export async function liveByName<T extends ObjectLiteral>(
  em: EntityManager,
  entity: EntityTarget<T>,
  projectId: string,
): Promise<Map<string, { id: string; externalId: string | null }>> {
  const rows = await em
    .createQueryBuilder()
    .select(['e.id AS id', 'e.name AS name', 'e.external_id AS external_id'])
    .from(entity, 'e')
    .where('e.project_id = :projectId AND e.deleted_at IS NULL', { projectId })
    .getRawMany<{ id: string; name: string; external_id: string | null }>();
  return new Map(rows.map((r) => [r.name, { id: r.id, externalId: r.external_id }]));
}
