import { PageRequest } from '#common';
import { Injectable } from '@nestjs/common';
import { IntakeService } from '../intake';
import type { IntakeIssueFields, IntakeIssueJson } from '../intake';
import type { Project } from '../project';
import { PublicBoardAccess } from './public-board-access';

/**
 * A published board's intake (Plane `IntakeIssuePublicViewSet`): signed-in visitors submit work
 * items and see, edit or withdraw only their own, through the intake room's door.
 */
@Injectable()
export class PublicIntakeService {
  constructor(
    private readonly access: PublicBoardAccess,
    private readonly intake: IntakeService,
  ) {}

  /**
   * The caller's own submissions to the board's intake, newest first, in the cursor envelope (the
   * intake item shape of the v1 API, `issue_detail` included). The board must show an intake (403
   * `BOARD_INTAKE_DISABLED`), `intakeId` must be it (404 `NOT_FOUND`), and the project's intake must
   * be on (400 `INTAKE_NOT_ENABLED`).
   */
  async intakeItems(anchor: string, intakeId: string, userId: string, page: PageRequest) {
    const { project } = await this.access.intakeBoard(anchor, intakeId);
    return this.intake.listSubmitted(project.id, intakeId, userId, page);
  }

  /**
   * A signed-in visitor submits a work item to the board's intake: 201 with the pending intake item
   * (`issue.name` required, 422; `priority` one of Plane's). Made as the v1 intake makes it.
   */
  async submitIntakeItem(anchor: string, intakeId: string, userId: string, issue: IntakeIssueFields | undefined) {
    const { project } = await this.access.intakeBoard(anchor, intakeId);
    return this.intake.create(this.intakeCtx(project, userId), { issue, source: 'IN_APP' });
  }

  /** One of the caller's own submissions, by the intake item's id or its work item's id; else 404. */
  async intakeItem(anchor: string, intakeId: string, id: string, userId: string): Promise<IntakeIssueJson> {
    const { project } = await this.access.intakeBoard(anchor, intakeId);
    const issueId = await this.intake.submittedIssueId(project.id, intakeId, id, userId);
    return this.intake.retrieve(project.id, issueId);
  }

  /** The submitter edits `name`, `description_html` or `description` of their own item (Plane's rule); else 404. */
  async updateIntakeItem(
    anchor: string,
    intakeId: string,
    id: string,
    userId: string,
    issue: IntakeIssueFields | undefined,
  ): Promise<IntakeIssueJson> {
    const { project } = await this.access.intakeBoard(anchor, intakeId);
    const issueId = await this.intake.submittedIssueId(project.id, intakeId, id, userId);
    return this.intake.update(this.intakeCtx(project, userId), issueId, { issue });
  }

  /** The submitter withdraws their own item (with its work item unless accepted): 204; else 404. */
  async removeIntakeItem(anchor: string, intakeId: string, id: string, userId: string): Promise<void> {
    const { project } = await this.access.intakeBoard(anchor, intakeId);
    const issueId = await this.intake.submittedIssueId(project.id, intakeId, id, userId);
    await this.intake.remove(this.intakeCtx(project, userId), issueId);
  }

  /** A visitor acts as a non-member (role null): only their own submissions, name and description. */
  private intakeCtx(project: Project, userId: string) {
    return { workspaceId: project.workspaceId, projectId: project.id, userId, role: null };
  }
}
