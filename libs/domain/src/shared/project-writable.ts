import { MeridianError } from '#common';
import { EntityManager } from 'typeorm';
import { Project } from '../project/project.entity';

/**
 * Nothing in an archived project changes until it is unarchived (reference plane-v1-api.md §8.1
 * "Archive": Plane blocks the project's PATCH and hides its contents): 400 `PROJECT_ARCHIVED`.
 */
export async function assertProjectWritable(em: EntityManager, projectId: string): Promise<void> {
  const project = await em.getRepository(Project).findOne({ where: { id: projectId }, select: { id: true, archivedAt: true } });
  if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
  if (project.archivedAt) throw new MeridianError('PROJECT_ARCHIVED');
}
