import { validationError } from '#common';
import type { EntityManager } from 'typeorm';
import type { Issue } from '../issue';
import { findIssuesOfProject } from './planning.repository';

/**
 * The live work items of the project with these ids (duplicates folded). An empty list is 422
 * (Plane: 400 "Issues are required"); an id that is not a live work item of the project is 422
 * (Plane does not check; Meridian names the ids).
 */
export async function issuesOfProject(em: EntityManager, projectId: string, ids: string[]): Promise<Issue[]> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (!wanted.length) throw validationError({ issues: ['Issues are required.'] });
  const found = await findIssuesOfProject(em, projectId, wanted);
  const missing = wanted.filter((id) => !found.some((i) => i.id === id));
  if (missing.length) throw validationError({ issues: [`Not work items of this project: ${missing.join(', ')}.`] });
  return wanted.map((id) => found.find((i) => i.id === id)!);
}
