import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig, RateLimit } from '../config/app-config';
import { refuseRateLimited } from './rate-limit-headers';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit-store';

/**
 * Failed authentications per client address (`FAILED_AUTH_RATE_LIMIT`): requests on an
 * authenticated route (App API, External API, instance admin) whose API key or Bearer token is
 * wrong, expired or revoked. Once an address has that many in the window, its requests that
 * present a credential are refused with 429 before the credential is looked up, until the window
 * frees a slot; a failure past the limit (concurrent requests) is answered 429 instead of 401.
 * Requests without any credential are not counted (401 `AUTHENTICATION_REQUIRED`).
 */
@Injectable()
export class FailedAuthLimiter {
  private readonly rate: RateLimit;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.rate = config.rateLimits.failedAuth;
  }

  private key(req: Request): string {
    return `failed-auth:ip:${req.ip}`;
  }

  /** Before verifying a presented credential: 429 when the address is at the limit. */
  async check(req: Request, res: Response): Promise<void> {
    const state = await this.store.peek(this.key(req), this.rate.ttlMs);
    if (state.count >= this.rate.limit) refuseRateLimited(res, 'failed-auth', this.rate.limit, state.resetAt);
  }

  /** After a presented credential was refused: counts it; past the limit the answer becomes 429. */
  async record(req: Request, res: Response): Promise<void> {
    const state = await this.store.add(this.key(req), this.rate.ttlMs, randomUUID());
    if (state.count > this.rate.limit) refuseRateLimited(res, 'failed-auth', this.rate.limit, state.resetAt);
  }
}
