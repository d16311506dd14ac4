import { StateGroup } from './state.entity';

/**
 * The five states every new project gets (Plane `plane/api/views/project.py`
 * ProjectAPIEndpoint.post), Backlog the default.
 */
export const DEFAULT_STATES: ReadonlyArray<{
  name: string;
  color: string;
  sequence: number;
  group: StateGroup;
  default: boolean;
}> = [
  { name: 'Backlog', color: '#A3A3A3', sequence: 15000, group: 'backlog', default: true },
  { name: 'Todo', color: '#3A3A3A', sequence: 25000, group: 'unstarted', default: false },
  { name: 'In Progress', color: '#F59E0B', sequence: 35000, group: 'started', default: false },
  { name: 'Done', color: '#16A34A', sequence: 45000, group: 'completed', default: false },
  { name: 'Cancelled', color: '#EF4444', sequence: 55000, group: 'cancelled', default: false },
];

export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s_-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 100);
}
