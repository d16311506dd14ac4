import { APP_CONFIG, AppConfig, AuditActor, MeridianError, PageRequest } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudit } from '../kernel/audit';
import { ProjectService } from '../project';
import { UserProfileService } from '../user';
import { isRestrictedSlug, WORKSPACE_SLUG_PATTERN, workspaceView, WorkspaceService } from '../workspace';
import type { Instance } from './instance.entity';
import { InstanceRepository } from './instance.repository';
import { InstanceSettings } from '../instance-config';
import { instanceView } from './instance.view';

/** `PATCH /api/instances/` input (Plane's read-only fields are not accepted). */
export interface UpdateInstanceInput {
  instance_name?: string;
  domain?: string | null;
  is_telemetry_enabled?: boolean;
  is_support_required?: boolean;
}

/** How a user is about to be created: the sign-up gates depend on it. */
export type SignUpMedium = 'email' | 'magic-code' | 'oauth';

/**
 * The instance: its public description, the gates its configuration puts on sign-up, sign-in and
 * workspace creation, and the instance admins' view of workspaces
 * (Plane `plane/license/api/views/`).
 */
@Injectable()
export class InstanceService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: InstanceSettings,
    private readonly instances: InstanceRepository,
    private readonly workspaces: WorkspaceService,
    private readonly projects: ProjectService,
    private readonly users: UserProfileService,
  ) {}

  /** The instance row (created on first use). */
  instance(): Promise<Instance> {
    return this.instances.ensureInstance(this.instances.manager);
  }

  /**
   * `GET /api/instances/`: `{instance: {…, current_version, is_setup_done, workspaces_exist},
   * config: {…public flags}}`. Never carries a secret: providers and SMTP are reported as booleans.
   */
  async info() {
    const instance = await this.instance();
    const workspacesExist = await this.workspaces.anyLive();
    const v = await this.settings.getMany([
      'ENABLE_SIGNUP',
      'DISABLE_WORKSPACE_CREATION',
      'ENABLE_MAGIC_LINK_LOGIN',
      'ENABLE_EMAIL_PASSWORD',
      'EMAIL_HOST',
      'UNSPLASH_ACCESS_KEY',
      'LLM_API_KEY',
      'IS_INTERCOM_ENABLED',
      'INTERCOM_APP_ID',
    ]);
    const on = (value: string) => value.trim() === '1' || ['true', 'yes', 'on'].includes(value.trim().toLowerCase());
    const fileSizeLimit = Number(this.config.instanceEnv.FILE_SIZE_LIMIT ?? 5_242_880);
    return {
      instance: instanceView(instance, workspacesExist),
      config: {
        enable_signup: on(v.ENABLE_SIGNUP),
        is_workspace_creation_disabled: on(v.DISABLE_WORKSPACE_CREATION),
        is_email_password_enabled: on(v.ENABLE_EMAIL_PASSWORD),
        is_magic_login_enabled: on(v.ENABLE_MAGIC_LINK_LOGIN),
        is_google_enabled: await this.settings.isProviderEnabled('google'),
        is_github_enabled: await this.settings.isProviderEnabled('github'),
        is_gitlab_enabled: await this.settings.isProviderEnabled('gitlab'),
        is_smtp_configured: v.EMAIL_HOST.trim() !== '',
        has_unsplash_configured: v.UNSPLASH_ACCESS_KEY !== '',
        has_openai_configured: v.LLM_API_KEY !== '',
        file_size_limit: Number.isFinite(fileSizeLimit) ? fileSizeLimit : 5_242_880,
        is_intercom_enabled: on(v.IS_INTERCOM_ENABLED),
        intercom_app_id: v.INTERCOM_APP_ID || null,
        github_app_name: null,
        slack_client_id: null,
        posthog_api_key: null,
        posthog_host: null,
        app_base_url: this.config.webUrl,
        admin_base_url: null,
        space_base_url: null,
        instance_changelog_url: 'https://github.com/makeplane/plane/releases/tag/v0.25.3',
      },
    };
  }

  /**
   * `PATCH /api/instances/`: the instance's editable fields (`instance_name`, `domain`,
   * `is_telemetry_enabled`, `is_support_required`); returns the instance as `GET` shows it.
   */
  async update(input: UpdateInstanceInput, actor: AuditActor | null = null) {
    const instance = await this.instance();
    const changes: Partial<Instance> = {};
    if (input.instance_name !== undefined) changes.instanceName = input.instance_name;
    if (input.domain !== undefined) changes.domain = input.domain;
    if (input.is_telemetry_enabled !== undefined) changes.isTelemetryEnabled = input.is_telemetry_enabled;
    if (input.is_support_required !== undefined) changes.isSupportRequired = input.is_support_required;
    if (Object.keys(changes).length)
      await this.dataSource.transaction(async (em) => {
        await this.instances.updateInstance(em, instance.id, changes);
        await recordAudit(em, {
          event: 'instance.settings_changed',
          actor,
          target: { type: 'instance', id: instance.id },
          metadata: { set: Object.keys(input).filter((k) => input[k as keyof UpdateInstanceInput] !== undefined) },
        });
      });
    const workspacesExist = await this.workspaces.anyLive();
    return instanceView(await this.instance(), workspacesExist);
  }

  /**
   * `POST /api/instances/admins/sign-up-screen-visited/` (Plane `plane/license/api/views/instance.py`
   * SignUpScreenVisitedEndpoint): the admin app has shown its set-up screen; `GET /api/instances/`
   * reports `is_signup_screen_visited: true` from now on.
   */
  async markSignUpScreenVisited(): Promise<void> {
    const instance = await this.instance();
    if (!instance.isSignupScreenVisited)
      await this.instances.updateInstance(this.instances.manager, instance.id, { isSignupScreenVisited: true });
  }

  /**
   * Gate for creating a user account (Plane `plane/authentication/adapter/base.py`): 403
   * `INSTANCE_NOT_CONFIGURED` until the first set-up is done; for email/password sign-up, 403
   * `EMAIL_PASSWORD_AUTHENTICATION_DISABLED` when `ENABLE_EMAIL_PASSWORD` is "0"; 403
   * `SIGNUP_DISABLED` when `ENABLE_SIGNUP` is "0".
   */
  async assertSignUpAllowed(medium: SignUpMedium = 'email'): Promise<void> {
    if (!(await this.instance()).isSetupDone) throw new MeridianError('INSTANCE_NOT_CONFIGURED');
    if (medium === 'email' && !(await this.settings.getBool('ENABLE_EMAIL_PASSWORD'))) {
      throw new MeridianError('EMAIL_PASSWORD_AUTHENTICATION_DISABLED');
    }
    if (medium === 'magic-code' && !(await this.settings.getBool('ENABLE_MAGIC_LINK_LOGIN'))) {
      throw new MeridianError('MAGIC_LINK_LOGIN_DISABLED');
    }
    if (!(await this.settings.getBool('ENABLE_SIGNUP'))) throw new MeridianError('SIGNUP_DISABLED');
  }

  /** Whether sign-in by a mailed code is offered: SMTP configured (`EMAIL_HOST`) and `ENABLE_MAGIC_LINK_LOGIN` on. */
  async magicCodeOffered(): Promise<boolean> {
    const { EMAIL_HOST } = await this.settings.getMany(['EMAIL_HOST']);
    return EMAIL_HOST.trim() !== '' && (await this.settings.getBool('ENABLE_MAGIC_LINK_LOGIN'));
  }

  /** Gate for magic-code sign-in: 403 `MAGIC_LINK_LOGIN_DISABLED` when `ENABLE_MAGIC_LINK_LOGIN` is "0". */
  async assertMagicLoginAllowed(): Promise<void> {
    if (!(await this.settings.getBool('ENABLE_MAGIC_LINK_LOGIN'))) throw new MeridianError('MAGIC_LINK_LOGIN_DISABLED');
  }

  /**
   * Whether the user is an instance admin (a row of `instance_admins`); in the caller's
   * transaction when `em` is given.
   */
  isInstanceAdmin(userId: string, em: EntityManager = this.instances.manager): Promise<boolean> {
    return this.instances.isAdmin(em, userId);
  }

  /** Gate for email/password sign-in: 403 `EMAIL_PASSWORD_AUTHENTICATION_DISABLED` when `ENABLE_EMAIL_PASSWORD` is "0". */
  async assertPasswordLoginAllowed(): Promise<void> {
    if (!(await this.settings.getBool('ENABLE_EMAIL_PASSWORD')))
      throw new MeridianError('EMAIL_PASSWORD_AUTHENTICATION_DISABLED');
  }

  /**
   * Every live workspace, oldest first, in the cursor envelope, each with `owner {id, email,
   * first_name, last_name, display_name}`, `total_members` (active members) and `total_projects`.
   * `search` matches the name or slug, case-insensitively.
   */
  async listWorkspaces(page: PageRequest, search?: string) {
    const result = await this.workspaces.instancePage(page, search);
    const ids = result.results.map((w) => w.id);
    const ownerIds = [...new Set(result.results.map((w) => w.ownerId))];
    const [members, projects, owners] = await Promise.all([
      this.workspaces.activeMemberCounts(ids),
      this.projects.liveCountsByWorkspace(ids),
      this.users.liveUsers(ownerIds),
    ]);
    const ownerById = new Map(owners.map((u) => [u.id, u]));
    return result.map((w) => {
      const owner = ownerById.get(w.ownerId);
      return {
        ...workspaceView(w, { total_members: members.get(w.id) ?? 0 }),
        owner: owner
          ? {
              id: owner.id,
              email: owner.email,
              first_name: owner.firstName,
              last_name: owner.lastName,
              display_name: owner.displayName,
            }
          : null,
        total_projects: projects.get(w.id) ?? 0,
      };
    });
  }

  /**
   * `GET /api/instances/workspace-slug-check/?slug=`: `{status: true}` when the slug can be used for
   * a new workspace (no workspace, even deleted, has it in any letter case; not restricted; valid).
   */
  async isSlugAvailable(slug: string): Promise<boolean> {
    if (!WORKSPACE_SLUG_PATTERN.test(slug) || isRestrictedSlug(slug)) return false;
    return !(await this.workspaces.isSlugTaken(slug));
  }
}
