// The auth feature's door: what other features and the API modules use.
export { AccountService, Credentials, SignInResult } from './account.service';
export { AuthFlowService } from './auth-flow.service';
export { OAuthService } from './oauth.service';
export type { OAuthSite } from './oauth.service';
export { ClientInfo, SessionService } from './session.service';
export { AuthFeatureModule } from './auth.module';
export { AccountSettingsService } from './account-settings.service';
export type { LinkedAccountJson } from './account-settings.service';
export {
  checkLdapEnvDirectory,
  checkSsoEnvConnections,
  ENV_LDAP_CONNECTION_ID,
  ENV_SAML_CONNECTION_ID,
  ENV_SSO_CONNECTION_ID,
  SsoConnectionService,
} from './sso-connection.service';
export type { ResolvedSsoConnection, SsoConnectionInput, SsoConnectionJson } from './sso-connection.service';
export { OIDC_FLOW_COOKIE, OIDC_FLOW_TTL_SECONDS, OIDC_SESSION_COOKIE, OidcService } from './oidc.service';
export type { OidcSignIn, SsoSite } from './oidc.service';
export type { GroupRoleMapping } from './sso-connection.entity';
export { SamlService } from './saml.service';
export type { SamlLogoutDone, SamlLogoutInput, SamlSignIn } from './saml.service';
