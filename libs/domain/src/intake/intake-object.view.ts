import { projectLiteView } from '../project';
import type { Project } from '../project';
import type { Intake } from './intake.entity';

/**
 * A project's intake object as Plane's `IntakeSerializer` (`plane/app/serializers/intake.py`,
 * `fields = "__all__"` plus `project_detail` and the `pending_issue_count` annotation). Meridian keeps
 * no `view_props` or `logo_props` for an intake: they answer `{}`.
 */
export function intakeObjectView(intake: Intake, pending: number, project: Project | null) {
  return {
    id: intake.id,
    project_detail: project ? projectLiteView(project) : null,
    pending_issue_count: pending,
    created_at: intake.createdAt,
    updated_at: intake.updatedAt,
    deleted_at: intake.deletedAt,
    name: intake.name,
    description: intake.description,
    is_default: intake.isDefault,
    view_props: {},
    logo_props: {},
    created_by: intake.createdById,
    updated_by: intake.updatedById,
    project: intake.projectId,
    workspace: intake.workspaceId,
  };
}
export type IntakeObjectJson = ReturnType<typeof intakeObjectView>;
