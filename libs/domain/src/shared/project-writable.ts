import { MeridianError } from '#common';
import { EntityManager } from 'typeorm';
import { Project } from '../project/project.entity';

/**
 * Nothing in an archived project changes until it is unarchived (Plane
 * `plane/api/views/project.py`: ProjectAPIEndpoint.patch refuses it, and its contents are hidden):
 * 400 `PROJECT_ARCHIVED`.
 */
export async function assertProjectWritable(em: EntityManager, projectId: string): Promise<void> {
  const project = await em.getRepository(Project).findOne({ where: { id: projectId }, select: { id: true, archivedAt: true } });
  if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
  if (project.archivedAt) throw new MeridianError('PROJECT_ARCHIVED');
}
