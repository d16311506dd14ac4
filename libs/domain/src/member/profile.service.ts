import { validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WorkspaceInvitationService } from '../invitation';
import { ProjectMemberService, projectMemberView } from '../project';
import type { ProjectMemberJson } from '../project';
import { WorkspaceService } from '../workspace';
import type { WorkspaceJson } from '../workspace';
import { UserProfileService } from '../user';
import type { Profile } from '../user';
import { ProfileJson, profileView } from './member.view';
import { WorkspaceSettingsService } from './workspace-settings.service';

/** Writable profile fields (Plane: any Profile field except `user`). */
export interface ProfileInput {
  theme?: Record<string, unknown>;
  is_tour_completed?: boolean;
  onboarding_step?: Record<string, unknown>;
  use_case?: string | null;
  role?: string | null;
  is_onboarded?: boolean;
  last_workspace_id?: string | null;
  billing_address_country?: string | null;
  billing_address?: Record<string, unknown> | null;
  has_billing_address?: boolean;
  company_name?: string;
  is_smooth_cursor_enabled?: boolean;
  is_mobile_onboarded?: boolean;
  mobile_onboarding_step?: Record<string, unknown>;
  mobile_timezone_auto_set?: boolean;
  language?: string;
}

const COLUMNS: Record<keyof ProfileInput, keyof Profile> = {
  theme: 'theme',
  is_tour_completed: 'isTourCompleted',
  onboarding_step: 'onboardingStep',
  use_case: 'useCase',
  role: 'role',
  is_onboarded: 'isOnboarded',
  last_workspace_id: 'lastWorkspaceId',
  billing_address_country: 'billingAddressCountry',
  billing_address: 'billingAddress',
  has_billing_address: 'hasBillingAddress',
  company_name: 'companyName',
  is_smooth_cursor_enabled: 'isSmoothCursorEnabled',
  is_mobile_onboarded: 'isMobileOnboarded',
  mobile_onboarding_step: 'mobileOnboardingStep',
  mobile_timezone_auto_set: 'mobileTimezoneAutoSet',
  language: 'language',
};

/**
 * The signed-in user's app settings (Plane's `users/me/profile/`, `users/me/settings/`,
 * `users/me/onboard/`, `users/me/tour-completed/`; Plane `plane/app/views/user/base.py`).
 * The profile row is created on first use. The time zone lives on the user (`PATCH users/me/`).
 */
@Injectable()
export class ProfileService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UserProfileService,
    private readonly memberships: WorkspaceService,
    private readonly projectMembers: ProjectMemberService,
    private readonly invitations: WorkspaceInvitationService,
    private readonly workspaces: WorkspaceSettingsService,
  ) {}

  /**
   * `GET /api/users/last-visited-workspace/` (Plane's `UserLastProjectWithWorkspaceEndpoint`): the
   * profile's last workspace with the caller's `role`, and the caller's active memberships of its
   * live projects; `{project_details: [], workspace_details: {}}` when there is none or the caller
   * is no longer an active member of it.
   */
  async lastVisitedWorkspace(
    userId: string,
  ): Promise<{ workspace_details: WorkspaceJson | Record<string, never>; project_details: ProjectMemberJson[] }> {
    const p = await this.users.ensureProfile(userId);
    const live = p.lastWorkspaceId
      ? await this.memberships.oldestLiveWorkspaceOf(userId, p.lastWorkspaceId)
      : undefined;
    const membership = live
      ? await this.memberships.findActiveMember({ workspaceId: live.id, memberId: userId }, false)
      : null;
    if (!live || !membership) return { project_details: [], workspace_details: {} };
    const rows = await this.projectMembers.activeMembershipsOfUser(live.id, userId);
    return {
      workspace_details: await this.workspaces.retrieve(live.id, membership.role),
      project_details: rows.map((r) => projectMemberView(r, r.member!)),
    };
  }

  async get(userId: string): Promise<ProfileJson> {
    return profileView(await this.users.ensureProfile(userId));
  }

  /** Partial update; `last_workspace_id` must be a workspace the user is an active member of (422). */
  async update(userId: string, input: ProfileInput): Promise<ProfileJson> {
    return this.dataSource.transaction(async (em) => {
      const p = await this.users.ensureProfile(userId, em);
      if (input.last_workspace_id) {
        const member = await this.memberships.findActiveMember(
          { workspaceId: input.last_workspace_id, memberId: userId },
          false,
          em,
        );
        if (!member) throw validationError({ last_workspace_id: ['Not one of your workspaces.'] });
      }
      const patch: Record<string, unknown> = {};
      for (const [key, column] of Object.entries(COLUMNS)) {
        const value = input[key as keyof ProfileInput];
        if (value !== undefined) patch[column] = value;
      }
      return profileView(await this.users.updateProfile(p.id, patch as Partial<Profile>, em));
    });
  }

  /**
   * `{id, email, workspace: {last_workspace_id, last_workspace_slug, fallback_workspace_id,
   * fallback_workspace_slug, invites}}`: the last workspace if the user is still in it, the oldest
   * membership as fallback, and the count of pending invitations to the user's email.
   */
  async settings(userId: string) {
    const user = await this.users.userByIdOrFail(userId);
    const p = await this.users.ensureProfile(userId);
    const mine = (workspaceId?: string) => this.memberships.oldestLiveWorkspaceOf(userId, workspaceId);
    const last = p.lastWorkspaceId ? await mine(p.lastWorkspaceId) : undefined;
    const fallback = await mine();
    const invites = await this.invitations.countPendingForEmail(user.email);
    return {
      id: user.id,
      email: user.email,
      workspace: {
        last_workspace_id: last?.id ?? null,
        last_workspace_slug: last?.slug ?? null,
        fallback_workspace_id: fallback?.id ?? null,
        fallback_workspace_slug: fallback?.slug ?? null,
        invites,
      },
    };
  }
}
