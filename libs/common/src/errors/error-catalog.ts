/**
 * Every machine-readable `error_code` Meridian answers with, and the HTTP status it maps to.
 *
 * Source: spec part 7 (statuses 400, 401, 403, 404, 409, 422, 429) plus 405, 413 and 500, which the
 * transport produces. `docs/errors.md` lists every entry; a test fails when the two drift apart.
 */
export const ERROR_CATALOG = {
  // 400: input that cannot be read
  MALFORMED_JSON: { status: 400, detail: 'The request body is not valid JSON.' },
  MALFORMED_REQUEST: { status: 400, detail: 'The request body must be a JSON object.' },
  INVALID_CURSOR: { status: 400, detail: 'Invalid cursor parameter.' },
  INVALID_PER_PAGE: { status: 400, detail: 'Invalid per_page parameter.' },
  INVALID_QUERY_PARAMETER: { status: 400, detail: 'A query parameter is not valid.' },
  PROJECT_ARCHIVED: { status: 400, detail: 'Archived project cannot be updated.' },
  DEFAULT_STATE_NOT_DELETABLE: { status: 400, detail: 'Default state cannot be deleted.' },
  STATE_NOT_EMPTY: { status: 400, detail: 'The state is not empty, only empty states can be deleted.' },
  // 401
  AUTHENTICATION_REQUIRED: { status: 401, detail: 'Authentication credentials were not provided.' },
  INVALID_ACCESS_TOKEN: { status: 401, detail: 'The access token is invalid or has expired.' },
  INVALID_API_KEY: { status: 401, detail: 'Given API token is not valid.' },
  AUTHENTICATION_FAILED_SIGN_IN: { status: 401, detail: 'The email or the password is not correct.' },
  // 403
  PERMISSION_DENIED: { status: 403, detail: 'You do not have permission to perform this action.' },
  API_KEY_WORKSPACE_MISMATCH: { status: 403, detail: 'This API key does not belong to this workspace.' },
  // 404
  NOT_FOUND: { status: 404, detail: 'The requested resource does not exist.' },
  ROUTE_NOT_FOUND: { status: 404, detail: 'Page not found.' },
  WORKSPACE_NOT_FOUND: { status: 404, detail: 'Workspace not found.' },
  PROJECT_NOT_FOUND: { status: 404, detail: 'Project not found.' },
  // 405
  METHOD_NOT_ALLOWED: { status: 405, detail: 'Method not allowed.' },
  // 409
  CONFLICT: { status: 409, detail: 'The request conflicts with existing data.' },
  USER_ALREADY_EXIST: { status: 409, detail: 'A user with this email already exists.' },
  WORKSPACE_SLUG_TAKEN: { status: 409, detail: 'The workspace with the slug already exists.' },
  PROJECT_IDENTIFIER_TAKEN: { status: 409, detail: 'The project identifier is already taken.' },
  PROJECT_NAME_TAKEN: { status: 409, detail: 'The project name is already taken.' },
  STATE_NAME_TAKEN: { status: 409, detail: 'State with the same name already exists in the project.' },
  LABEL_NAME_TAKEN: { status: 409, detail: 'Label with the same name already exists in the project.' },
  EXTERNAL_ID_TAKEN: { status: 409, detail: 'An object with the same external id and external source already exists.' },
  LINK_URL_TAKEN: { status: 409, detail: 'URL already exists for this work item.' },
  // 413
  PAYLOAD_TOO_LARGE: { status: 413, detail: 'The request body is too large.' },
  // 415
  UNSUPPORTED_MEDIA_TYPE: { status: 415, detail: 'Unsupported media type.' },
  // 422
  VALIDATION_ERROR: { status: 422, detail: 'The request did not pass validation.' },
  // 429
  RATE_LIMIT_EXCEEDED: { status: 429, detail: 'Request was throttled. Too many requests.' },
  // 500 / 503
  INTERNAL_ERROR: { status: 500, detail: 'Something went wrong, please try again later.' },
  SERVICE_UNAVAILABLE: { status: 503, detail: 'The service is not available right now.' },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOG[code].status;
}
