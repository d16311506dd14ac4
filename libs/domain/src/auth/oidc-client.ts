import { MeridianError } from '#common';
import type * as OpenIdClient from 'openid-client';

/** An OIDC connection's settings, the secret in clear. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** space separated, `openid` included */
  scopes: string;
  /** the claim holding the user's groups (a list of strings, or one string) */
  groupsClaim: string;
}

/** How long a discovered configuration (metadata, keys) is reused before it is read again. */
const DISCOVERY_TTL_MS = 3_600_000;
const DISCOVERY_TIMEOUT_MS = 10_000;

let lib: typeof OpenIdClient | undefined;
/** `openid-client` (ECMAScript module only), loaded on first use. */
export function openid(): typeof OpenIdClient {
  lib ??= require('openid-client') as typeof OpenIdClient;
  return lib;
}

const cache = new Map<string, { at: number; config: OpenIdClient.Configuration }>();

function isLoopbackUrl(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname);
}

/**
 * The provider's configuration from its discovery document (`<issuer>/.well-known/openid-configuration`,
 * by `openid-client`, which checks the document's `issuer` is the issuer asked for), reused an hour.
 * `fresh` (a save through the Instance API) reads it again and also checks the provider offers the
 * authorization code flow with S256 PKCE. Throws 422 `SSO_DISCOVERY_FAILED` naming the cause.
 * Plain http is allowed only for a loopback issuer.
 */
export async function discoverOidc(s: OidcSettings, fresh = false): Promise<OpenIdClient.Configuration> {
  const key = JSON.stringify([s.issuer, s.clientId, s.clientSecret]);
  const hit = cache.get(key);
  if (!fresh && hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
  const client = openid();
  const url = new URL(s.issuer);
  let config: OpenIdClient.Configuration;
  try {
    config = await client.discovery(url, s.clientId, undefined, client.ClientSecretPost(s.clientSecret), {
      execute: isLoopbackUrl(url) && url.protocol === 'http:' ? [client.allowInsecureRequests] : [],
      timeout: DISCOVERY_TIMEOUT_MS / 1000,
    });
  } catch (err) {
    const cause = (err as { cause?: { message?: string } })?.cause?.message;
    throw new MeridianError(
      'SSO_DISCOVERY_FAILED',
      `The OpenID Connect discovery of ${s.issuer} failed: ${(err as Error)?.message ?? String(err)}${cause ? ` (${cause})` : ''}`,
    );
  }
  const meta = config.serverMetadata();
  const problems: string[] = [];
  if (!meta.authorization_endpoint) problems.push('no authorization_endpoint');
  if (!meta.token_endpoint) problems.push('no token_endpoint');
  if (!meta.jwks_uri) problems.push('no jwks_uri');
  if (meta.response_types_supported && !meta.response_types_supported.includes('code'))
    problems.push('the "code" response type is not supported');
  if (meta.code_challenge_methods_supported && !meta.code_challenge_methods_supported.includes('S256'))
    problems.push('PKCE with S256 is not supported');
  if (problems.length) {
    throw new MeridianError(
      'SSO_DISCOVERY_FAILED',
      `The provider at ${s.issuer} is not usable: ${problems.join('; ')}.`,
    );
  }
  cache.set(key, { at: Date.now(), config });
  return config;
}
