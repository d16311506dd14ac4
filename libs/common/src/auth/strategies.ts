import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import type { Request } from 'express';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { sha256 } from '../util/secrets';
import { AccessCache } from './access-cache';
import { apiKeyDigest } from './api-key-digest';
import {
  CREDENTIAL_VERIFIER,
  CredentialVerifier,
  INSTANCE_ADMIN_VERIFIER,
  InstanceAdminVerifier,
  Principal,
} from './principal';

/**
 * The request as passport-http-bearer may see it: the `Authorization` header only. The library
 * also takes `access_token` from the query string and the body (RFC 6750 §2.2–2.3); a token in a
 * URL ends up in access logs, proxies and `Referer` headers, so neither is accepted.
 */
function headerOnly(req: unknown): unknown {
  return Object.create(req as object, { query: { value: {} }, body: { value: undefined } });
}

const isPrincipal = (p: Principal | null): boolean => p !== null;

/** The access cache's key of a bearer access token (`BearerTokenStrategy`) and of an API key's digest (`ApiKeyStrategy`). */
export const accessTokenCacheKey = (token: string): string => `t:${sha256(token)}`;
export const apiKeyCacheKey = (digest: string): string => `k:${digest}`;
const expiryOf = (p: Principal | null): number | undefined => p?.expiresAt;

/**
 * passport-http-bearer: `Authorization: Bearer <opaque access token>` → session principal
 * (through `AccessCache`, by the token's SHA-256).
 */
@Injectable()
export class BearerTokenStrategy extends PassportStrategy(BearerStrategy, 'bearer') {
  constructor(
    @Inject(CREDENTIAL_VERIFIER) private readonly verifier: CredentialVerifier,
    private readonly cache: AccessCache,
  ) {
    super();
  }

  override authenticate(req: unknown, options?: unknown): void {
    super.authenticate(headerOnly(req) as never, options as never);
  }

  async validate(token: string): Promise<Principal | false> {
    const principal = await this.cache.get(
      accessTokenCacheKey(token),
      () => this.verifier.verifyAccessToken(token),
      isPrincipal,
      expiryOf,
    );
    return principal ?? false;
  }
}

/** What passport adds to a strategy while it authenticates a request (passport-strategy). */
interface PassportActions {
  success(user: unknown): void;
  fail(challenge: unknown, status: number): void;
  error(err: Error): void;
}

/**
 * passport-headerapikey: `X-API-Key: plane_api_…` → API-key principal. The key is looked up by
 * the request's memoised digest (`apiKeyDigest`, which the rate limiter already computed), so it
 * is hashed once per request, and through `AccessCache`.
 */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, 'api-key') {
  constructor(
    @Inject(CREDENTIAL_VERIFIER) private readonly verifier: CredentialVerifier,
    private readonly cache: AccessCache,
  ) {
    // passport-headerapikey reads req.headers[header] as given: Node lower-cases header names
    super({ header: 'x-api-key', prefix: '' }, false);
  }

  /** Passport calls this on a per-request copy of the strategy (`success`/`fail`/`error` are its own). */
  override authenticate(req: Request, options?: object): void {
    const digest = apiKeyDigest(req);
    if (digest === null) return super.authenticate(req, options); // no key: the library's failure
    const passport = this as unknown as PassportActions;
    this.cache
      .get(apiKeyCacheKey(digest), () => this.verifier.verifyApiKeyDigest(digest), isPrincipal, expiryOf)
      .then(
        (principal) => (principal ? passport.success(principal) : passport.fail(null, 401)),
        (err: unknown) => passport.error(err as Error),
      );
  }

  /** Not used: `authenticate` verifies by digest. */
  async validate(): Promise<Principal | false> {
    return false;
  }
}

/** passport-http-bearer under the name `instance-admin`: an instance admin token → admin principal. */
@Injectable()
export class InstanceAdminTokenStrategy extends PassportStrategy(BearerStrategy, 'instance-admin') {
  constructor(@Inject(INSTANCE_ADMIN_VERIFIER) private readonly verifier: InstanceAdminVerifier) {
    super();
  }

  override authenticate(req: unknown, options?: unknown): void {
    super.authenticate(headerOnly(req) as never, options as never);
  }

  async validate(token: string): Promise<Principal | false> {
    return (await this.verifier.verifyInstanceAdminToken(token)) ?? false;
  }
}
