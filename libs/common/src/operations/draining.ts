import type { ServerResponse } from 'node:http';

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

  /**
   * `Connection: close` on every answer whose head is written while draining, installed once on
   * the Express application's response prototype (`app.response`, the prototype Express gives every
   * response it handles): every head goes through `writeHead` (`res.end` without an explicit head
   * too), so draining that starts while a request runs still closes its connection. Nothing is done
   * per request (a wrapper made per response cost a read about 1 % of its CPU, BENCHMARKS.md
   * "Per-request costs").
   */
  closeConnectionsOf(response: ServerResponse): void {
    const isDraining = () => this.active;
    const writeHead = response.writeHead;
    response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (isDraining() && !this.headersSent) this.setHeader('Connection', 'close');
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof response.writeHead;
  }
}
