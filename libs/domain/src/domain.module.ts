import { CREDENTIAL_VERIFIER, PROJECT_ACCESS_RESOLVER, WORKSPACE_ACCESS_RESOLVER } from '#common';
import { Module } from '@nestjs/common';
import { ApiTokenService } from './api-token/api-token.service';
import { AccountService } from './auth/account.service';
import { CredentialVerifierService } from './auth/credential-verifier.service';
import { SessionService } from './auth/session.service';
import { MailService } from './mail/mail.service';
import { ProjectService } from './project/project.service';
import { StateService } from './state/state.service';
import { LabelService } from './label/label.service';
import { MemberService } from './member/member.service';
import { IssueService } from './issue/issue.service';
import { IssueChildrenService } from './issue/issue-children.service';
import { WorkspaceService } from './workspace/workspace.service';

const SERVICES = [AccountService, SessionService, WorkspaceService, ApiTokenService, ProjectService, MailService,
  StateService, LabelService, MemberService, IssueService, IssueChildrenService];

/**
 * The domain: entities' rules and services, shared by every API module. Also binds the
 * cross-cutting guards' ports (`CREDENTIAL_VERIFIER`, `WORKSPACE_ACCESS_RESOLVER`,
 * `PROJECT_ACCESS_RESOLVER`).
 */
@Module({
  providers: [
    ...SERVICES,
    CredentialVerifierService,
    { provide: CREDENTIAL_VERIFIER, useExisting: CredentialVerifierService },
    { provide: WORKSPACE_ACCESS_RESOLVER, useExisting: WorkspaceService },
    { provide: PROJECT_ACCESS_RESOLVER, useExisting: ProjectService },
  ],
  exports: [...SERVICES, CREDENTIAL_VERIFIER, WORKSPACE_ACCESS_RESOLVER, PROJECT_ACCESS_RESOLVER],
})
export class DomainModule {}
