/**
 * Every machine-readable `error_code` Meridian answers with, and the HTTP status it maps to.
 *
 * Source: docs/reference/http-interface.md §7 (statuses 400, 401, 403, 404, 422, 429), 409 for
 * conflicts (docs/decisions.md, "Conflicts are 409"), plus the statuses the transport and the
 * server's dependencies produce (405, 408, 413, 415, 417, 431, 500, 502, 503). `docs/errors.md` lists
 * every entry; a test fails when the two drift apart.
 */
export const ERROR_CATALOG = {
  // 400: input that cannot be read
  MALFORMED_JSON: { status: 400, detail: 'The request body is not valid JSON.' },
  MALFORMED_REQUEST: { status: 400, detail: 'The request body must be a JSON object.' },
  INVALID_CURSOR: { status: 400, detail: 'Invalid cursor parameter.' },
  INVALID_PER_PAGE: { status: 400, detail: 'Invalid per_page parameter.' },
  INVALID_QUERY_PARAMETER: { status: 400, detail: 'A query parameter is not valid.' },
  INVALID_CHARACTERS: {
    status: 400,
    detail: 'The request contains a NUL character, a lone UTF-16 surrogate or malformed percent-encoding.',
  },
  NESTING_TOO_DEEP: { status: 400, detail: 'The request body is nested too deeply.' },
  ANSWER_TOO_LARGE: {
    status: 400,
    detail: 'The page asked for would be larger than an answer may be; ask for fewer rows with per_page.',
  },
  FIELD_TOO_LONG: { status: 422, detail: 'A field of the request body is longer than Meridian allows.' },
  LAST_WORKSPACE_ADMIN: { status: 400, detail: 'The workspace must keep at least one Admin.' },
  LAST_PROJECT_ADMIN: { status: 400, detail: 'The project must keep at least one Admin.' },
  CANNOT_REMOVE_SELF: { status: 400, detail: 'You cannot remove yourself; leave instead.' },
  PROJECT_ARCHIVED: { status: 400, detail: 'Archived projects cannot be updated.' },
  INVITATION_ALREADY_RESPONDED: { status: 400, detail: 'You have already responded to the invitation request.' },
  DEFAULT_STATE_NOT_DELETABLE: { status: 400, detail: 'Default state cannot be deleted.' },
  STATE_NOT_EMPTY: { status: 400, detail: 'The state is not empty, only empty states can be deleted.' },
  CYCLE_ARCHIVED: { status: 400, detail: 'Archived cycle cannot be edited.' },
  CYCLE_COMPLETED: { status: 400, detail: 'The cycle has already been completed, so it cannot be edited.' },
  CYCLE_NOT_COMPLETED: { status: 400, detail: 'The cycle has not been completed yet.' },
  CYCLE_TRANSFER_TARGET_COMPLETED: {
    status: 400,
    detail: 'The cycle where the work items are transferred is already completed.',
  },
  MODULE_ARCHIVED: { status: 400, detail: 'Archived module cannot be edited.' },
  MODULE_NOT_ARCHIVABLE: { status: 400, detail: 'Only completed or cancelled modules can be archived.' },
  DRAFT_PROJECT_REQUIRED: { status: 400, detail: 'Project is required to create an issue.' },
  VIEW_LOCKED: { status: 400, detail: 'The view is locked; its owner must unlock it first.' },
  PAGE_LOCKED: { status: 400, detail: 'The page is locked; unlock it first.' },
  PAGE_ARCHIVED: { status: 400, detail: 'The page is archived; restore it first.' },
  PAGE_NOT_ARCHIVED: { status: 400, detail: 'The page should be archived before deleting.' },
  PAGE_ACCESS_OWNER_ONLY: {
    status: 400,
    detail: 'Access cannot be updated since this page is owned by someone else.',
  },
  ISSUE_NOT_ARCHIVABLE: { status: 400, detail: 'Only work items in a completed or cancelled state can be archived.' },
  ATTACHMENT_TYPE_NOT_ALLOWED: { status: 400, detail: 'Invalid file type.' },
  ANALYTICS_AXIS_INVALID: {
    status: 400,
    detail: 'x-axis and y-axis dimensions are required and the values should be valid',
  },
  ANALYTICS_SEGMENT_INVALID: {
    status: 400,
    detail: 'Both segment and x axis cannot be same and segment should be valid',
  },
  EXPORT_PROVIDER_NOT_FOUND: { status: 400, detail: 'The export provider is not one of csv, json, xlsx.' },
  ATTACHMENT_NOT_UPLOADED: { status: 400, detail: 'The asset is not uploaded.' },
  FILE_REQUIRED: { status: 400, detail: 'No file was submitted.' },
  FILE_EMPTY: { status: 400, detail: 'The submitted file is empty.' },
  INVALID_ENTITY_TYPE: { status: 400, detail: 'Invalid entity type.' },
  INTAKE_DEFAULT_UNDELETABLE: { status: 400, detail: 'You cannot delete the default intake' },
  INTAKE_NOT_ENABLED: {
    status: 400,
    detail: "Intake is not enabled for this project; enable it with the project's intake_view.",
  },
  WEBHOOK_URL_NOT_ALLOWED: {
    status: 400,
    detail:
      "The webhook URL is not allowed: it must be http(s) and must not point at a loopback, private, link-local or this server's own address.",
  },
  WEBHOOK_URL_UNRESOLVABLE: { status: 400, detail: "The webhook URL's host name could not be resolved." },
  INVITE_ROLE_MISMATCH: { status: 400, detail: 'You cannot invite a user with different role than workspace role' },
  LLM_NOT_CONFIGURED: { status: 400, detail: 'LLM provider API key and model are required' },
  DEACTIVATE_INSTANCE_ADMIN: {
    status: 400,
    detail: 'You cannot deactivate your account since you are an instance admin',
  },
  DEACTIVATE_ONLY_PROJECT_ADMIN: {
    status: 400,
    detail: 'You cannot deactivate account as you are the only admin in some projects.',
  },
  DEACTIVATE_ONLY_WORKSPACE_ADMIN: {
    status: 400,
    detail: 'You cannot deactivate account as you are the only admin in some workspaces.',
  },
  // 401
  AUTHENTICATION_REQUIRED: { status: 401, detail: 'Authentication credentials were not provided.' },
  INVALID_ACCESS_TOKEN: { status: 401, detail: 'The access token is invalid or has expired.' },
  INVALID_API_KEY: { status: 401, detail: 'Given API token is not valid.' },
  AUTHENTICATION_FAILED_SIGN_IN: { status: 401, detail: 'The email or the password is not correct.' },
  ADMIN_AUTHENTICATION_FAILED: {
    status: 401,
    detail: 'The email or the password is not correct, or the user is not an instance admin.',
  },
  INVALID_REFRESH_TOKEN: { status: 401, detail: 'The refresh token is invalid, already used, or has expired.' },
  // 403
  CSRF_FAILED: {
    status: 403,
    detail: "CSRF check failed: send the csrftoken cookie's value in X-CSRFToken from a trusted origin.",
  },
  PERMISSION_DENIED: { status: 403, detail: 'You do not have permission to perform this action.' },
  API_KEY_WORKSPACE_MISMATCH: { status: 403, detail: 'This API key does not belong to this workspace.' },
  INSTANCE_NOT_CONFIGURED: { status: 403, detail: 'Instance not configured. Please contact your administrator.' },
  ADMIN_ALREADY_EXIST: {
    status: 403,
    detail: 'The instance is already set up: an instance admin exists. Sign in instead.',
  },
  SIGNUP_DISABLED: { status: 403, detail: 'Sign up disabled. Please contact your administrator.' },
  EMAIL_PASSWORD_AUTHENTICATION_DISABLED: {
    status: 403,
    detail: 'Email and password authentication is disabled on this instance.',
  },
  MAGIC_LINK_LOGIN_DISABLED: { status: 403, detail: 'Magic link login disabled. Please contact your administrator.' },
  WORKSPACE_CREATION_DISABLED: { status: 403, detail: 'Workspace creation is disabled on this instance.' },
  BOARD_COMMENTS_DISABLED: { status: 403, detail: 'Comments are not enabled for this project board.' },
  BOARD_REACTIONS_DISABLED: { status: 403, detail: 'Reactions are not enabled for this project board.' },
  BOARD_INTAKE_DISABLED: { status: 403, detail: 'Intake is not enabled for this project board.' },
  BOARD_VOTES_DISABLED: { status: 403, detail: 'Votes are not enabled for this project board.' },
  INVALID_SIGNATURE: { status: 403, detail: 'The signed URL is not valid.' },
  SIGNED_URL_EXPIRED: { status: 403, detail: 'The signed URL has expired.' },
  INVITATION_EMAIL_MISMATCH: { status: 403, detail: 'This invitation is addressed to another email.' },
  // 404
  NOT_FOUND: { status: 404, detail: 'The requested resource does not exist.' },
  ROUTE_NOT_FOUND: { status: 404, detail: 'Page not found.' },
  WORKSPACE_NOT_FOUND: { status: 404, detail: 'Workspace not found.' },
  PROJECT_NOT_FOUND: { status: 404, detail: 'Project not found.' },
  USER_DOES_NOT_EXIST: { status: 404, detail: 'No account found with this email.' },
  BOARD_NOT_FOUND: { status: 404, detail: 'Project is not published.' },
  INVITATION_NOT_FOUND: { status: 404, detail: 'Invitation not found.' },
  // 405
  METHOD_NOT_ALLOWED: { status: 405, detail: 'Method not allowed.' },
  // 408
  REQUEST_TIMEOUT: { status: 408, detail: 'The request was not received in time.' },
  // 409
  CONFLICT: { status: 409, detail: 'The request conflicts with existing data.' },
  USER_ALREADY_EXIST: { status: 409, detail: 'A user with this email already exists.' },
  WORKSPACE_SLUG_TAKEN: { status: 409, detail: 'The workspace with the slug already exists.' },
  PROJECT_IDENTIFIER_IN_USE: { status: 400, detail: 'Cannot delete an identifier of an existing project.' },
  PROJECT_IDENTIFIER_TAKEN: { status: 409, detail: 'The project identifier is already taken.' },
  PROJECT_NAME_TAKEN: { status: 409, detail: 'The project name is already taken.' },
  ADMIN_USER_ALREADY_EXIST: { status: 409, detail: 'This user is already an instance admin.' },
  LAST_INSTANCE_ADMIN: { status: 409, detail: 'The last instance admin cannot be removed.' },
  ALREADY_PROJECT_MEMBER: { status: 400, detail: 'User is already part of the workspace and project.' },
  SMTP_CHECK_FAILED: { status: 400, detail: 'Could not send email. Please check your configuration' },
  ALREADY_WORKSPACE_MEMBER: { status: 409, detail: 'Some users are already members of the workspace.' },
  STATE_NAME_TAKEN: { status: 409, detail: 'State with the same name already exists in the project.' },
  LABEL_NAME_TAKEN: { status: 409, detail: 'Label with the same name already exists in the project.' },
  EXTERNAL_ID_TAKEN: { status: 409, detail: 'An object with the same external id and external source already exists.' },
  LINK_URL_TAKEN: { status: 409, detail: 'URL already exists for this work item.' },
  MODULE_NAME_TAKEN: { status: 409, detail: 'Module with this name already exists.' },
  ESTIMATE_EXISTS: { status: 409, detail: 'The project already has an estimate.' },
  ESTIMATE_POINT_KEY_TAKEN: { status: 409, detail: 'The estimate already has a point with this key.' },
  WEBHOOK_URL_TAKEN: { status: 409, detail: 'A webhook with this URL already exists in the workspace.' },
  QUICK_LINK_EXISTS: { status: 409, detail: 'URL already exists for this workspace and owner.' },
  THEME_NAME_TAKEN: { status: 409, detail: 'A theme with this name already exists in the workspace.' },
  // 413
  SERVER_BUSY: {
    status: 503,
    detail: 'The server is answering too much at once; retry after the number of seconds in Retry-After.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, detail: 'The request body is too large.' },
  ATTACHMENT_TOO_LARGE: { status: 413, detail: 'The file is larger than the instance allows (FILE_SIZE_LIMIT).' },
  // 415
  UNSUPPORTED_MEDIA_TYPE: { status: 415, detail: 'Unsupported media type.' },
  // 417
  EXPECTATION_FAILED: { status: 417, detail: 'The Expect header is not supported; only 100-continue is.' },
  // 422
  VALIDATION_ERROR: { status: 422, detail: 'The request did not pass validation.' },
  // 429
  RATE_LIMIT_EXCEEDED: { status: 429, detail: 'Request was throttled. Too many requests.' },
  // 431
  HEADERS_TOO_LARGE: { status: 431, detail: 'The request headers are too large.' },
  // 500 / 503
  INTERNAL_ERROR: { status: 500, detail: 'Something went wrong, please try again later.' },
  SERVICE_UNAVAILABLE: { status: 503, detail: 'The service is not available right now.' },
  DATABASE_UNAVAILABLE: {
    status: 503,
    detail: 'The database cannot be reached right now; retry after the number of seconds in Retry-After.',
  },
  DATABASE_TIMEOUT: {
    status: 503,
    detail: 'The database did not finish in time (busy or locked); retry after the number of seconds in Retry-After.',
  },
  DATABASE_CONFLICT: {
    status: 503,
    detail:
      'The database aborted this change because it collided with another; nothing was written. Retry after the number of seconds in Retry-After.',
  },
  // Auth (/auth/): Plane's authentication error names (authentication/adapter/error.py)
  INVALID_EMAIL: { status: 422, detail: 'Invalid email. Please try again.' },
  USER_ACCOUNT_DEACTIVATED: { status: 403, detail: 'User account deactivated. Please contact your administrator.' },
  INVALID_MAGIC_CODE: { status: 401, detail: 'Invalid magic code. Please try again.' },
  EXPIRED_MAGIC_CODE: { status: 401, detail: 'Expired magic code. Please try again.' },
  EMAIL_CODE_ATTEMPT_EXHAUSTED: { status: 401, detail: 'Too many wrong codes. Request a new magic code.' },
  INVALID_PASSWORD_TOKEN: { status: 400, detail: 'Invalid password token.' },
  EXPIRED_PASSWORD_TOKEN: { status: 400, detail: 'Expired password token. Please try again.' },
  INCORRECT_OLD_PASSWORD: { status: 400, detail: 'Incorrect old password. Please try again.' },
  PASSWORD_ALREADY_SET: { status: 400, detail: 'Password already set. Please try again.' },
  GITHUB_NOT_CONFIGURED: { status: 404, detail: 'GitHub not configured. Please contact your administrator.' },
  GOOGLE_NOT_CONFIGURED: { status: 404, detail: 'Google not configured. Please contact your administrator.' },
  GITLAB_NOT_CONFIGURED: { status: 404, detail: 'GitLab not configured. Please contact your administrator.' },
  GITHUB_OAUTH_PROVIDER_ERROR: { status: 502, detail: 'GitHub OAuth provider error. Please try again.' },
  GOOGLE_OAUTH_PROVIDER_ERROR: { status: 502, detail: 'Google OAuth provider error. Please try again.' },
  GITLAB_OAUTH_PROVIDER_ERROR: { status: 502, detail: 'GitLab OAuth provider error. Please try again.' },
  SSO_REQUIRED: {
    status: 403,
    detail: "This email's domain signs in through its organization's identity provider. Use single sign-on.",
  },
  SSO_NOT_CONFIGURED: {
    status: 404,
    detail: 'This single sign-on connection does not exist, is disabled, or its client secret must be set again.',
  },
  SSO_DOMAIN_TAKEN: { status: 409, detail: 'An email domain already belongs to another single sign-on connection.' },
  SSO_CONNECTION_READ_ONLY: {
    status: 409,
    detail: 'This connection comes from the environment (OIDC_* variables); change it there.',
  },
  SSO_DISCOVERY_FAILED: {
    status: 422,
    detail: 'The identity provider could not be reached or its configuration is unusable.',
  },
  SSO_INVITATION_REQUIRED: {
    status: 403,
    detail: 'This connection signs in invited people only. Ask a workspace admin for an invitation.',
  },
  OIDC_STATE_MISMATCH: { status: 400, detail: 'The sign-in answer does not belong to this browser (state mismatch).' },
  OIDC_NONCE_MISMATCH: { status: 400, detail: 'The ID token was not issued for this sign-in (nonce mismatch).' },
  OIDC_PROVIDER_ERROR: {
    status: 502,
    detail: 'The identity provider refused or failed the sign-in. Please try again.',
  },
  LDAP_UNAVAILABLE: {
    status: 503,
    detail:
      'The sign-in directory (LDAP) cannot be reached right now; retry after the number of seconds in Retry-After.',
  },
  LDAP_CHECK_FAILED: {
    status: 422,
    detail: 'The LDAP directory could not be reached or refused the service account.',
  },
  SAML_RESPONSE_INVALID: { status: 400, detail: 'The SAML answer of the identity provider is missing or malformed.' },
  SAML_SIGNATURE_INVALID: {
    status: 400,
    detail: "The SAML assertion is not signed by the identity provider's certificate.",
  },
  SAML_AUDIENCE_MISMATCH: { status: 400, detail: 'The SAML assertion is meant for another service (audience).' },
  SAML_RECIPIENT_MISMATCH: {
    status: 400,
    detail: 'The SAML answer was sent to another address than this service (recipient or destination).',
  },
  SAML_ISSUER_MISMATCH: {
    status: 400,
    detail: "The SAML assertion's issuer is not the connection's identity provider.",
  },
  SAML_ASSERTION_EXPIRED: { status: 400, detail: 'The SAML assertion is expired or not yet valid.' },
  SAML_ASSERTION_REPLAYED: { status: 400, detail: 'This SAML assertion was already used.' },
  SAML_IN_RESPONSE_TO_MISMATCH: {
    status: 400,
    detail: 'The SAML answer does not answer a sign-in started here (InResponseTo), or it came too late.',
  },
  SAML_LOGOUT_INVALID: {
    status: 400,
    detail: 'The SAML single logout message is missing or malformed (neither a LogoutRequest nor a LogoutResponse).',
  },
  SAML_LOGOUT_EXPIRED: { status: 400, detail: 'The SAML LogoutRequest is too old or not yet valid.' },
  SAML_LOGOUT_REPLAYED: { status: 400, detail: 'This SAML LogoutRequest was already processed.' },
  SAML_SLO_NOT_CONFIGURED: {
    status: 404,
    detail: 'This SAML connection has no single logout (no slo_url, or no SP signing key).',
  },
  SAML_PROVIDER_ERROR: {
    status: 502,
    detail: 'The identity provider refused or failed the sign-in. Please try again.',
  },
  UNSPLASH_UNAVAILABLE: { status: 502, detail: 'Unsplash did not answer. Please try again later.' },
  // 400 as Plane's MagicCodeProvider and ForgotPasswordEndpoint: a configuration state, not an outage
  SMTP_NOT_CONFIGURED: { status: 400, detail: 'SMTP not configured. Please contact your administrator.' },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOG[code].status;
}
