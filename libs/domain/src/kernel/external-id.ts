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
