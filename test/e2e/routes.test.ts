import { AUTH_SCHEME, ERROR_CATALOG, PrefilteredRouter } from '#common';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from '../support/processes';
import { collectRoutes } from '../support/routes';
import { startTestApp, TestApp } from '../support/test-app';

interface RouteInfo {
  route: string;
  scheme: string | undefined;
}

/** Every handler with the auth scheme it declares (handler first, then class). */
function routeSchemes(t: TestApp): RouteInfo[] {
  return collectRoutes(t).map((r) => ({
    route: `${r.verb} ${r.name} (${r.path})`,
    scheme: r.meta(AUTH_SCHEME) as string | undefined,
  }));
}

describe('route declarations', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('every route declares how it authenticates (default deny)', () => {
    const routes = routeSchemes(t);
    assert.ok(routes.length >= 7, `found ${routes.length} routes`);
    const undeclared = routes.filter(
      (r) => !['public', 'session', 'api-key', 'instance-admin'].includes(r.scheme ?? ''),
    );
    assert.deepEqual(undeclared, []);
    const publicRoutes = routes
      .filter((r) => r.scheme === 'public')
      .map((r) => r.route.split(' ')[1].split(' ')[0])
      .sort();
    assert.deepEqual(publicRoutes, [
      'AppProjectJoinController.answer',
      'AppProjectJoinController.retrieve',
      'AppStaticAssetsController.read',
      'AppUserSessionController.session',
      'AssetTransferController.download',
      'AssetTransferController.upload',
      'AssetTransferController.uploadForm',
      'AuthController.csrfToken',
      'AuthController.signIn',
      'AuthController.signUp',
      'HealthController.check',
      'InstanceAdminWebController.signIn',
      'InstanceAdminWebController.signOut',
      'InstanceAdminWebController.signUp',
      'InstanceController.info',
      'InstanceController.refresh',
      'InstanceController.session',
      'InstanceController.signIn',
      'InstanceController.signUp',
      'InstanceController.signUpScreenVisited',
      'InvitationJoinController.join',
      'InvitationJoinController.retrieve',
      'OAuthController.github',
      'OAuthController.githubCallback',
      'OAuthController.gitlab',
      'OAuthController.gitlabCallback',
      'OAuthController.google',
      'OAuthController.googleCallback',
      'OidcController.callback',
      'OidcController.spaceStart',
      'OidcController.start',
      'PasswordlessController.emailCheck',
      'PasswordlessController.forgotPassword',
      'PasswordlessController.magicGenerate',
      'PasswordlessController.magicSignIn',
      'PasswordlessController.resetPassword',
      'PasswordlessController.spaceEmailCheck',
      'PasswordlessController.spaceForgotPassword',
      'PasswordlessController.spaceMagicGenerate',
      'PublicAnchorLookupController.lookup',
      'PublicAssetsController.read',
      'PublicBoardController.comment',
      'PublicBoardController.comments',
      'PublicBoardController.cycles',
      'PublicBoardController.issue',
      'PublicBoardController.issues',
      'PublicBoardController.labels',
      'PublicBoardController.members',
      'PublicBoardController.meta',
      'PublicBoardController.modules',
      'PublicBoardController.reactions',
      'PublicBoardController.settings',
      'PublicBoardController.states',
      'PublicBoardController.votes',
      'PublicWorkspaceBoardsController.list',
      'SamlController.acs',
      'SamlController.metadata',
      'SamlController.sloPost',
      'SamlController.sloRedirect',
      'SamlController.spaceStart',
      'SamlController.start',
      'SessionsController.refresh',
      'SpaceOAuthController.github',
      'SpaceOAuthController.githubCallback',
      'SpaceOAuthController.gitlab',
      'SpaceOAuthController.gitlabCallback',
      'SpaceOAuthController.google',
      'SpaceOAuthController.googleCallback',
      'TimezonesController.list',
      'WebAuthController.magicSignIn',
      'WebAuthController.magicSignUp',
      'WebAuthController.resetPassword',
      'WebAuthController.signIn',
      'WebAuthController.signOut',
      'WebAuthController.signUp',
      'WebAuthController.spaceMagicSignIn',
      'WebAuthController.spaceMagicSignUp',
      'WebAuthController.spaceResetPassword',
      'WebAuthController.spaceSignIn',
      'WebAuthController.spaceSignOut',
      'WebAuthController.spaceSignUp',
    ]);
    // instance admin tokens are accepted only under /api/instances/
    const adminRoutes = routes.filter((r) => r.scheme === 'instance-admin').map((r) => r.route.split(' ')[1]);
    assert.ok(adminRoutes.length >= 8, adminRoutes.join(', '));
    assert.ok(
      adminRoutes.every((r) =>
        ['InstanceAdminController.', 'SsoConnectionsController.', 'InstanceAuditLogsController.'].some((c) =>
          r.startsWith(c),
        ),
      ),
      adminRoutes.join(', '),
    );
  });

  it('docs/errors.md lists every error_code, and only those', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'errors.md'), 'utf8');
    const documented = new Set([...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => `${m[1]}:${m[2]}`));
    const catalog = new Set(Object.entries(ERROR_CATALOG).map(([code, { status }]) => `${code}:${status}`));
    assert.deepEqual(
      [...catalog].filter((c) => !documented.has(c)),
      [],
      'missing from docs/errors.md',
    );
    assert.deepEqual(
      [...documented].filter((c) => !catalog.has(c)),
      [],
      'documented but not in the catalog',
    );
  });
});

describe('route prefilter (route-prefilter.ts)', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it("answers every path as the router's own match does", () => {
    const router = (t.app.getHttpAdapter().getInstance() as { router: PrefilteredRouter }).router;
    type Layer = PrefilteredRouter['stack'][number];
    const routes = router.stack.filter(
      (l): l is Layer & { route: { path: string } } => typeof l.route?.path === 'string',
    );
    const own = Object.getPrototypeOf(routes[0]).match as Layer['match'];
    const prefiltered = routes.filter((l) => l.match !== own);
    assert.ok(prefiltered.length > routes.length * 0.9, `${prefiltered.length} of ${routes.length} routes prefiltered`);
    // each route's path with values, with and without the trailing slash, upper-cased, cut short, one
    // segment longer, with an empty or a non-ASCII segment
    const paths = new Set<string>(['/', '//', '/api', '/API/', '/api/v1/%2F/x/']);
    for (const { route } of routes) {
      const p = route.path.replace(/:[^/]+/g, 'x1');
      const parts = p.split('/');
      for (const q of [p, `${p}/`, `${p}//`, p.toUpperCase(), `${p}/extra`, parts.slice(0, -1).join('/'), `${p}/é`])
        paths.add(q);
      paths.add(parts.map((s, i) => (i === 2 ? '' : s)).join('/'));
    }
    let checked = 0;
    for (const path of paths) {
      for (const layer of prefiltered) {
        assert.deepEqual(layer.match(path), own.call(layer, path), `${layer.route.path} against ${path}`);
        checked++;
      }
    }
    assert.ok(checked > 100_000, `${checked} checks`);
  });
});
