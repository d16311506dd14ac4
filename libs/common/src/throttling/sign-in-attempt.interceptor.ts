import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { concatMap, from, map, Observable, catchError, throwError } from 'rxjs';
import { MeridianError } from '../errors/meridian.error';

const ATTEMPT = Symbol('meridian:sign-in-attempt');

/** How a sign-in ended: signed in, refused with 401 (wrong credentials), or any other error. */
export type SignInOutcome = 'signed-in' | 'failed' | 'other';

/**
 * A sign-in attempt counted in advance by the rate limiter (so concurrent guesses cannot slip
 * past the limit); `settle` is told how it ended: a failure (401) keeps the count, anything else
 * takes it back.
 */
export interface SignInAttempt {
  settle(outcome: SignInOutcome): Promise<void>;
}

export function setSignInAttempt(req: Request, attempt: SignInAttempt): void {
  (req as Request & { [ATTEMPT]?: SignInAttempt })[ATTEMPT] = attempt;
}

function statusOf(err: unknown): number | undefined {
  if (err instanceof MeridianError) return err.status;
  if (err instanceof HttpException) return err.getStatus();
  return undefined;
}

/**
 * Settles the sign-in attempt the rate limiter recorded for this request (`@AuthRateLimit('sign-in')`
 * and `'magic-sign-in'` routes) once the handler's outcome is known, before the answer is sent:
 * the next request already sees the count.
 */
@Injectable()
export class SignInAttemptInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { [ATTEMPT]?: SignInAttempt }>();
    const attempt = req[ATTEMPT];
    if (!attempt) return next.handle();
    return next.handle().pipe(
      concatMap((value) => from(attempt.settle('signed-in')).pipe(map(() => value))),
      catchError((err: unknown) =>
        from(attempt.settle(statusOf(err) === 401 ? 'failed' : 'other')).pipe(concatMap(() => throwError(() => err))),
      ),
    );
  }
}
