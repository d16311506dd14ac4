import { ERROR_CATALOG, ErrorCode } from './error-catalog';

/**
 * The one exception type the domain throws. The global filter turns it into
 * `{detail, error_code, ...extra}` with the status the catalog gives the code.
 *
 * @param code   an entry of `ERROR_CATALOG`
 * @param detail human-readable message; defaults to the catalog's text
 * @param extra  more top-level fields for the body (for example `errors` on 422, `id` on 409)
 * @param retryAfter seconds, sent as `Retry-After` (503s that ask the client to come back)
 */
export class MeridianError extends Error {
  constructor(
    readonly code: ErrorCode,
    detail?: string,
    readonly extra: Record<string, unknown> = {},
    readonly retryAfter?: number,
  ) {
    super(detail ?? ERROR_CATALOG[code].detail);
    this.name = 'MeridianError';
  }

  get status(): number {
    return ERROR_CATALOG[this.code].status;
  }

  get detail(): string {
    return this.message;
  }
}

/** A 422 with a field → messages map, as the validation pipe produces. */
export function validationError(errors: Record<string, string[]>, detail?: string): MeridianError {
  return new MeridianError('VALIDATION_ERROR', detail, { errors });
}
