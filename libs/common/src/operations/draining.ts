import type { NextFunction, Request, Response } from 'express';

/**
 * Whether the process is stopping. On SIGTERM/SIGINT `main.ts` calls `start()`, then keeps serving
 * for `SHUTDOWN_DRAIN_MS` before it closes the listener: meanwhile `GET /health` answers 503 (so a
 * load balancer takes this process out of rotation) and every answer carries `Connection: close`
 * (so clients and proxies open their next connection to another replica rather than reuse this one).
 */
export class Draining {
  private since: number | null = null;

  get active(): boolean {
    return this.since !== null;
  }

  start(): void {
    this.since ??= Date.now();
  }

  /** Express middleware, mounted first: `Connection: close` on every answer while draining. */
  middleware() {
    const isDraining = () => this.active;
    return (_req: Request, res: Response, next: NextFunction) => {
      if (this.active) {
        res.setHeader('Connection', 'close');
        return next();
      }
      // draining may start while the request runs: decide when the head is written (`res.end`
      // without an explicit head writes it through `writeHead` too)
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: unknown[]) {
        if (isDraining() && !this.headersSent) this.setHeader('Connection', 'close');
        return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      } as typeof res.writeHead;
      next();
    };
  }
}
