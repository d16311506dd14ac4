import { APP_CONFIG, AppConfig, MeridianError, Public } from '#common';
import { SamlService, SessionService, SsoConnectionService, SsoSite } from '#domain';
import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientOf } from '../shared/client-info';
import { safeNextPath } from '../shared/web-form';
import { ssoFailureUrl, ssoSignedIn } from './sso-redirect';

/**
 * SAML 2.0 sign-in through an SSO connection of kind `saml` (docs/sso-saml.md). Plane's web app
 * reaches it by posting its sign-in form with an email of the connection's domain (the form routes
 * redirect here, see `WebAuthController`); these routes also serve a direct link.
 *
 * - `GET /auth/saml/{connection_id}/?next_path=` (web app) and `GET /auth/spaces/saml/{connection_id}/`
 *   (boards' app): 302 to the IdP's SSO URL with the AuthnRequest (HTTP-Redirect binding);
 * - `POST /auth/saml/{connection_id}/acs/` (the assertion consumer service, HTTP-POST binding, form
 *   field `SAMLResponse`; no CSRF token: the IdP's page posts it): the session cookie as any
 *   sign-in and a fresh CSRF token, then 302 to `APP_BASE_URL/<next_path or landing>` or
 *   `SPACE_BASE_URL<next_path>`;
 * - `GET /auth/saml/{connection_id}/metadata/`: the SP metadata (`application/samlmetadata+xml`:
 *   entity id, ACS URL, `WantAssertionsSigned`, the signing certificate when AuthnRequests are
 *   signed); 404 `SSO_NOT_CONFIGURED` as JSON for an unknown, disabled or non-SAML connection;
 * - `GET /auth/saml/{connection_id}/slo/` (HTTP-Redirect binding, `SAMLRequest` or `SAMLResponse`,
 *   `RelayState`, `SigAlg`, `Signature` in the query) and `POST` (HTTP-POST binding, the same fields as
 *   a form; no CSRF token: the IdP's page posts it): the single logout service (`SamlService.singleLogout`).
 *   The IdP's LogoutResponse: 302 to the sign-in page; the IdP's LogoutRequest: the matching sessions
 *   end, 302 to the IdP's `slo_url` with the signed LogoutResponse. A refusal answers the JSON error
 *   (`{detail, error_code}`) and changes nothing;
 * - every sign-in failure: no session, 302 to the sign-in page with Plane's `error_code` and
 *   `error_message` (`ssoFailureUrl`) and Meridian's code in `sso_error` (`SamlService.finish`).
 */
@Controller()
@Public()
export class SamlController {
  constructor(
    private readonly saml: SamlService,
    private readonly connections: SsoConnectionService,
    private readonly sessions: SessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('saml/:connection_id/metadata')
  async metadata(@Param('connection_id') id: string, @Res() res: Response): Promise<void> {
    const xml = await this.saml.metadata(id);
    res.status(200).type('application/samlmetadata+xml').send(xml);
  }

  @Post('saml/:connection_id/acs')
  @HttpCode(302)
  async acs(@Param('connection_id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const known = await this.saml.pendingOf(req.body);
    try {
      const done = await this.saml.finish(id, req.body, clientOf(req));
      res.redirect(302, await ssoSignedIn(res, this.config, this.sessions, done));
    } catch (err) {
      if (!(err instanceof MeridianError)) throw err;
      res.redirect(302, ssoFailureUrl(this.config, known?.site ?? 'app', err, safeNextPath(known?.next ?? undefined)));
    }
  }

  @Get('saml/:connection_id/slo')
  async sloRedirect(@Param('connection_id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const at = req.originalUrl.indexOf('?');
    const rawQuery = at >= 0 ? req.originalUrl.slice(at + 1) : '';
    const params = req.query as Record<string, unknown>;
    const done = await this.saml.singleLogout(id, { binding: 'redirect', params, rawQuery }, clientOf(req));
    res.redirect(302, done.url);
  }

  @Post('saml/:connection_id/slo')
  @HttpCode(302)
  async sloPost(@Param('connection_id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const params = (req.body ?? {}) as Record<string, unknown>;
    const done = await this.saml.singleLogout(id, { binding: 'post', params, rawQuery: '' }, clientOf(req));
    res.redirect(302, done.url);
  }

  @Get('saml/:connection_id')
  start(@Param('connection_id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.begin('app', id, req, res);
  }

  @Get('spaces/saml/:connection_id')
  spaceStart(@Param('connection_id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.begin('space', id, req, res);
  }

  private async begin(site: SsoSite, id: string, req: Request, res: Response): Promise<void> {
    const next = safeNextPath(typeof req.query.next_path === 'string' ? req.query.next_path : undefined);
    try {
      const connection = await this.connections.byId(id);
      if (!connection) throw new MeridianError('SSO_NOT_CONFIGURED');
      res.redirect(302, await this.saml.begin(connection, site, next));
    } catch (err) {
      if (!(err instanceof MeridianError)) throw err;
      res.redirect(302, ssoFailureUrl(this.config, site, err, next));
    }
  }
}
