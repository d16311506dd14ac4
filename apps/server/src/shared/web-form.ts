import { AllExceptionsFilter, APP_CONFIG, AppConfig, csrfRefusal, describeCsrfRefusal, MeridianError } from '#common';
import { ArgumentsHost, Catch, Inject, Logger, Optional } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Request, Response } from 'express';

/**
 * Plane's HTML form flows (sign-in, sign-up, magic code, sign-out; the instance admin's sign-in and
 * sign-up, password reset): the browser posts a `<form>`, and every answer is a 302, to the app
 * with the session cookie on success, or back to the form with Plane's numeric `error_code` and its
 * name in `error_message` on every failure: the flow's own, a CSRF refusal and a rate limit included
 * (Plane answers its CSRF refusal with Django's HTML 403 page) (Plane `plane/authentication/views/app/email.py`,
 * `plane/authentication/adapter/error.py`, `plane/license/api/views/admin.py`).
 */

/** Plane's authentication error numbers by name (`plane/authentication/adapter/error.py`). */
export const PLANE_AUTH_ERROR_CODES = {
  INSTANCE_NOT_CONFIGURED: 5000,
  INVALID_EMAIL: 5005,
  EMAIL_REQUIRED: 5010,
  SIGNUP_DISABLED: 5015,
  MAGIC_LINK_LOGIN_DISABLED: 5016,
  USER_ACCOUNT_DEACTIVATED: 5019,
  INVALID_PASSWORD: 5020,
  SMTP_NOT_CONFIGURED: 5025,
  USER_ALREADY_EXIST: 5030,
  AUTHENTICATION_FAILED_SIGN_UP: 5035,
  REQUIRED_EMAIL_PASSWORD_SIGN_UP: 5040,
  INVALID_EMAIL_SIGN_UP: 5045,
  MAGIC_SIGN_UP_EMAIL_CODE_REQUIRED: 5055,
  EMAIL_PASSWORD_AUTHENTICATION_DISABLED: 5056,
  USER_DOES_NOT_EXIST: 5060,
  AUTHENTICATION_FAILED_SIGN_IN: 5065,
  REQUIRED_EMAIL_PASSWORD_SIGN_IN: 5070,
  INVALID_EMAIL_SIGN_IN: 5075,
  MAGIC_SIGN_IN_EMAIL_CODE_REQUIRED: 5085,
  INVALID_MAGIC_CODE_SIGN_IN: 5090,
  INVALID_MAGIC_CODE_SIGN_UP: 5092,
  EXPIRED_MAGIC_CODE_SIGN_IN: 5095,
  EXPIRED_MAGIC_CODE_SIGN_UP: 5097,
  EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_IN: 5100,
  EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_UP: 5102,
  ADMIN_ALREADY_EXIST: 5150,
  REQUIRED_ADMIN_EMAIL_PASSWORD_FIRST_NAME: 5155,
  INVALID_ADMIN_EMAIL: 5160,
  INVALID_ADMIN_PASSWORD: 5165,
  REQUIRED_ADMIN_EMAIL_PASSWORD: 5170,
  ADMIN_AUTHENTICATION_FAILED: 5175,
  ADMIN_USER_ALREADY_EXIST: 5180,
  ADMIN_USER_DOES_NOT_EXIST: 5185,
  ADMIN_USER_DEACTIVATED: 5190,
  OAUTH_NOT_CONFIGURED: 5104,
  GOOGLE_NOT_CONFIGURED: 5105,
  GITHUB_NOT_CONFIGURED: 5110,
  GITLAB_NOT_CONFIGURED: 5111,
  GOOGLE_OAUTH_PROVIDER_ERROR: 5115,
  GITHUB_OAUTH_PROVIDER_ERROR: 5120,
  GITLAB_OAUTH_PROVIDER_ERROR: 5121,
  INVALID_PASSWORD_TOKEN: 5125,
  EXPIRED_PASSWORD_TOKEN: 5130,
  RATE_LIMIT_EXCEEDED: 5900,
  AUTHENTICATION_FAILED: 5999,
} as const;
export type PlaneAuthError = keyof typeof PLANE_AUTH_ERROR_CODES;

/** A form flow's refusal: Plane's error name and the form fields to echo back. */
export class WebFormError extends Error {
  constructor(
    readonly planeError: PlaneAuthError,
    readonly echo: Record<string, string | undefined> = {},
  ) {
    super(planeError);
  }
}

/** Where a flow sends the browser back on failure, and how Meridian's error codes read in Plane's numbers. */
export interface WebFormFlow {
  /** the page of the form, e.g. `http://localhost:3000/sign-in` */
  failureUrl: string;
  /** Meridian error code → Plane error name; unlisted codes become `fallback` */
  errors: Partial<Record<string, PlaneAuthError>>;
  fallback: PlaneAuthError;
  /** the code of a CSRF refusal: one the app shows as a banner ("Authentication failed. Please try again.") */
  csrfError: PlaneAuthError;
  /** form fields echoed on failure (never a password or a code) */
  echo: Record<string, string | undefined>;
}

const FLOW = Symbol('meridian:web-form-flow');

/** Declares the flow of this request, for `WebFormErrorFilter`. */
export function setWebFormFlow(req: Request, flow: WebFormFlow): void {
  (req as Request & { [FLOW]?: WebFormFlow })[FLOW] = flow;
}

/** `base?error_code=…&error_message=…&<echo>`. */
export function failureRedirect(base: string, error: PlaneAuthError, echo: Record<string, string | undefined>): string {
  const params = new URLSearchParams({ error_code: String(PLANE_AUTH_ERROR_CODES[error]), error_message: error });
  for (const [key, value] of Object.entries(echo)) if (value) params.set(key, value);
  return `${base}?${params.toString()}`;
}

const csrfLogger = new Logger('Csrf');

/**
 * The CSRF check of a form post (`csrfRefusal`), after its flow is declared: a refusal is logged
 * as one line naming the refused origin and the setting that trusts it (`describeCsrfRefusal`), and
 * answered like the flow's other failures, with the flow's `csrfError`.
 */
export function checkFormCsrf(req: Request, config: AppConfig, flow: WebFormFlow): void {
  const refusal = csrfRefusal(req, config);
  if (!refusal) return;
  csrfLogger.warn(describeCsrfRefusal(refusal, req, config));
  throw new WebFormError(flow.csrfError);
}

/**
 * Answers a failed form flow with Plane's redirect (bound on the form controllers): the flow
 * declared by `setWebFormFlow` maps the error (`WebFormError`: its Plane name; a `MeridianError`:
 * `flow.errors`, else the same name when Plane has it, else `flow.fallback`); a rate limit refused
 * before the handler ran becomes 5900 `RATE_LIMIT_EXCEEDED` on the page of `formFlowOf` (the
 * controller's flow for the route). Unexpected errors keep Meridian's JSON answer (500, logged).
 */
@Catch()
export class WebFormErrorFilter extends AllExceptionsFilter {
  constructor(@Optional() @Inject(APP_CONFIG) private readonly appConfig?: AppConfig) {
    super(appConfig);
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request & { [FLOW]?: WebFormFlow }>();
    const res = http.getResponse<Response>();
    const limited =
      exception instanceof ThrottlerException ||
      (exception instanceof MeridianError && exception.code === 'RATE_LIMIT_EXCEEDED');
    const flow = req[FLOW] ?? (limited && this.appConfig ? formFlowOf(req, this.appConfig) : undefined);
    if (
      !flow ||
      res.headersSent ||
      !(limited || exception instanceof MeridianError || exception instanceof WebFormError)
    ) {
      return super.catch(exception, host);
    }
    const error: PlaneAuthError = limited
      ? 'RATE_LIMIT_EXCEEDED'
      : exception instanceof WebFormError
        ? exception.planeError
        : (flow.errors[(exception as MeridianError).code] ??
          ((exception as MeridianError).code in PLANE_AUTH_ERROR_CODES
            ? ((exception as MeridianError).code as PlaneAuthError)
            : flow.fallback));
    const echo = exception instanceof WebFormError ? { ...flow.echo, ...exception.echo } : flow.echo;
    res.redirect(302, failureRedirect(flow.failureUrl, error, echo));
  }
}

const MAGIC_ERRORS = {
  in: {
    INVALID_MAGIC_CODE: 'INVALID_MAGIC_CODE_SIGN_IN',
    EXPIRED_MAGIC_CODE: 'EXPIRED_MAGIC_CODE_SIGN_IN',
    EMAIL_CODE_ATTEMPT_EXHAUSTED: 'EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_IN',
  },
  up: {
    INVALID_MAGIC_CODE: 'INVALID_MAGIC_CODE_SIGN_UP',
    EXPIRED_MAGIC_CODE: 'EXPIRED_MAGIC_CODE_SIGN_UP',
    EMAIL_CODE_ATTEMPT_EXHAUSTED: 'EMAIL_CODE_ATTEMPT_EXHAUSTED_SIGN_UP',
  },
} as const satisfies Record<string, Record<string, PlaneAuthError>>;

const USER_FORM = /^\/auth\/(?:web\/)?(spaces\/)?(sign-in|sign-up|magic-sign-in|magic-sign-up)\/?$/;
const RESET_FORM = /^\/auth\/(?:web\/)?(spaces\/)?reset-password\/([^/]+)\/([^/]+)\/?$/;
const ADMIN_FORM = /^\/api\/instances\/admins\/(?:web\/)?(sign-in|sign-up)\/?$/;

/**
 * The flow of a form route, from its path (Plane's or the rewritten `…/web/…` one): where its
 * failures go (Plane's pages: `APP_BASE_URL/sign-in` for the sign-in forms, `APP_BASE_URL/` for the
 * sign-up forms, `…/accounts/reset-password` for the reset form, `SPACE_BASE_URL/` for the boards'
 * app, `ADMIN_BASE_URL/` for god-mode), how Meridian's codes read in Plane's, and the fields echoed
 * back. Every fallback and `csrfError` is a code Plane's apps show as a banner (5065, 5035, 5175;
 * not 5999, which they ignore). Undefined for a path that is no form route.
 */
export function formFlowOf(req: Request, config: AppConfig): WebFormFlow | undefined {
  const { appBaseUrl, spaceBaseUrl, adminBaseUrl } = config.webSession;
  const path = req.path;
  const body = req.body as unknown;
  const user = USER_FORM.exec(path);
  if (user) {
    const [, spaces, form] = user;
    const signIn = form === 'sign-in' || form === 'magic-sign-in';
    const generic: PlaneAuthError = signIn ? 'AUTHENTICATION_FAILED_SIGN_IN' : 'AUTHENTICATION_FAILED_SIGN_UP';
    return {
      failureUrl: spaces ? `${spaceBaseUrl}/` : `${appBaseUrl}${signIn ? '/sign-in' : '/'}`,
      fallback: generic,
      csrfError: generic,
      errors: form.startsWith('magic-') ? MAGIC_ERRORS[signIn ? 'in' : 'up'] : {},
      echo: { email: formField(body, 'email'), next_path: safeNextPath(formField(body, 'next_path')) },
    };
  }
  const reset = RESET_FORM.exec(path);
  if (reset) {
    const spaces = reset[1];
    return {
      failureUrl: `${spaces ? spaceBaseUrl : appBaseUrl}/accounts/reset-password`,
      fallback: 'INVALID_PASSWORD_TOKEN',
      csrfError: 'AUTHENTICATION_FAILED_SIGN_IN',
      errors: {},
      // never the token: a redirect's URL reaches proxies' access logs
      echo: { email: formField(body, 'email') },
    };
  }
  const admin = ADMIN_FORM.exec(path);
  if (admin) {
    const signUp = admin[1] === 'sign-up';
    const b = body as Record<string, unknown> | undefined;
    return {
      failureUrl: `${adminBaseUrl}/`,
      fallback: 'ADMIN_AUTHENTICATION_FAILED',
      csrfError: 'ADMIN_AUTHENTICATION_FAILED',
      errors: { USER_ALREADY_EXIST: 'ADMIN_USER_ALREADY_EXIST' },
      echo: signUp
        ? {
            email: formField(b, 'email'),
            first_name: formField(b, 'first_name'),
            last_name: formField(b, 'last_name'),
            company_name: formField(b, 'company_name'),
            is_telemetry_enabled: formField(b, 'is_telemetry_enabled'),
          }
        : { email: formField(b, 'email') },
    };
  }
  return undefined;
}

/**
 * Declares the flow of this form route (`formFlowOf`) and applies the CSRF check (`checkFormCsrf`):
 * the first line of every form handler, so that every failure after it, the CSRF refusal
 * included, redirects.
 */
export function beginFormFlow(req: Request, config: AppConfig): WebFormFlow {
  const flow = formFlowOf(req, config);
  if (!flow) throw new Error(`no form flow for ${req.path}`);
  setWebFormFlow(req, flow);
  checkFormCsrf(req, config, flow);
  return flow;
}

/**
 * Reads a form into `dto` with class-validator. Returns the instance, or the names of the fields
 * that are missing (absent or empty) and of those that are present but invalid.
 */
export async function readForm<T extends object>(
  dto: new () => T,
  body: unknown,
): Promise<{ value: T; missing: string[]; invalid: string[] }> {
  const raw = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const value = plainToInstance(dto, raw);
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: false });
  const missing: string[] = [];
  const invalid: string[] = [];
  for (const e of errors) {
    const given = raw[e.property];
    (given === undefined || given === null || (typeof given === 'string' && given.trim() === '')
      ? missing
      : invalid
    ).push(e.property);
  }
  return { value, missing, invalid };
}

/** A form's string field, trimmed; undefined when absent. */
export function formField(body: unknown, name: string): string | undefined {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value.trim() : undefined;
}

/**
 * `next_path` when it is a path on the same site (`/…`, not `//…` or a URL); otherwise undefined,
 * so a form cannot send the user to another site (open redirect).
 */
export function safeNextPath(value: string | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  return value;
}
