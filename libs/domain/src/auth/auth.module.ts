import { Module } from '@nestjs/common';
import { InstanceFeatureModule } from '../instance';
import { InvitationFeatureModule } from '../invitation';
import { ProjectFeatureModule } from '../project';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { InstanceConfigFeatureModule } from '../instance-config';
import { MailFeatureModule } from '../mail';
import { ApiTokenFeatureModule } from '../api-token';
import { AccountService } from './account.service';
import { AccountRepository } from './account.repository';
import { AuthRepository } from './auth.repository';
import { SessionService } from './session.service';
import { AuthFlowService } from './auth-flow.service';
import { OAuthService } from './oauth.service';
import { CredentialVerifierService } from './credential-verifier.service';
import { LandingRepository } from './landing.repository';
import { AccountSettingsService } from './account-settings.service';
import { OidcService } from './oidc.service';
import { SsoConnectionService } from './sso-connection.service';
import { LdapService } from './ldap.service';
import { DirectorySignIn } from './directory-sign-in';
import { SsoSignInService } from './sso-sign-in.service';
import { SamlRepository } from './saml.repository';
import { SamlService } from './saml.service';

/**
 * The auth feature: its services; exports what other features and the API modules use. The users,
 * memberships and invitations a sign-in, sign-up or deactivation reads and writes come through the
 * doors of the user, workspace, project and invitation rooms (the imported modules' services).
 */
@Module({
  imports: [
    InstanceFeatureModule,
    InstanceConfigFeatureModule,
    MailFeatureModule,
    ApiTokenFeatureModule,
    UserFeatureModule,
    WorkspaceFeatureModule,
    ProjectFeatureModule,
    InvitationFeatureModule,
  ],
  providers: [
    AuthRepository,
    AccountRepository,
    LandingRepository,
    AccountService,
    SessionService,
    AuthFlowService,
    OAuthService,
    CredentialVerifierService,
    AccountSettingsService,
    SsoConnectionService,
    OidcService,
    LdapService,
    { provide: DirectorySignIn, useExisting: LdapService },
    SsoSignInService,
    SamlRepository,
    SamlService,
  ],
  exports: [
    AccountService,
    SessionService,
    AuthFlowService,
    OAuthService,
    CredentialVerifierService,
    AccountSettingsService,
    SsoConnectionService,
    OidcService,
    SamlService,
  ],
})
export class AuthFeatureModule {}
