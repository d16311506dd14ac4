import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { IncomingMessage, Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody, sendError } from '../errors/error-body';
import { ERROR_CATALOG, ErrorCode } from '../errors/error-catalog';

/** The most bytes of request line and headers a request may have (Node's default, made explicit): 431 beyond. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Headers of every answer written here, outside Express (and its helmet headers). */
const FIXED_HEADERS =
  'Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n';

/** The error code for a parse error of Node's HTTP server (`llhttp`'s `HPE_*` codes and Node's own). */
function codeOf(err: NodeJS.ErrnoException): ErrorCode {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'HEADERS_TOO_LARGE';
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return 'PAYLOAD_TOO_LARGE';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'REQUEST_TIMEOUT';
    default:
      return 'MALFORMED_REQUEST';
  }
}

/** A complete HTTP/1.1 answer in Meridian's error shape that closes the connection. */
export function rawErrorResponse(code: ErrorCode, detail?: string): string {
  const { status } = ERROR_CATALOG[code];
  const body = JSON.stringify(errorBody(code, detail));
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${FIXED_HEADERS}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * Answers what Node's HTTP server refuses before Express sees a request in the error shape,
 * where Node writes a bare status line with an empty body:
 * - `clientError` (a request the parser rejects: a malformed request line or header, two
 *   `Content-Length`s, `Content-Length` with `Transfer-Encoding`, bad chunked framing; headers over
 *   `MAX_HEADER_BYTES`; a request or header timeout) → 400 `MALFORMED_REQUEST`, 431
 *   `HEADERS_TOO_LARGE`, 413 `PAYLOAD_TOO_LARGE` or 408 `REQUEST_TIMEOUT`, then the connection is
 *   closed. Nothing is written once a response has started on the connection (as Node does).
 * - `checkExpectation` (an `Expect` other than `100-continue`) → 417 `EXPECTATION_FAILED`.
 * - an HTTP/1.1 request without `Host`, which Node answers with a bare 400 (its
 *   `requireHostHeader`, turned off here): `requireHost()`, mounted in Express, answers it.
 * `Expect: 100-continue` keeps Node's handling (`100 Continue`, then the request as usual).
 * Used where the server is created (`createApp`), so the tests' servers have it too.
 */
export function answerHttpErrors(server: Server): void {
  // what `http.createServer({ maxHeaderSize })` sets; read for each new connection
  (server as Server & { maxHeaderSize?: number }).maxHeaderSize = MAX_HEADER_BYTES;
  // what `http.createServer({ requireHostHeader })` sets; read for each request: `requireHost()` instead
  (server as Server & { requireHostHeader?: boolean }).requireHostHeader = false;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const code = codeOf(err);
    socket.end(
      rawErrorResponse(code, code === 'MALFORMED_REQUEST' ? 'The HTTP request could not be parsed.' : undefined),
    );
    socket.destroySoon(); // once the answer is flushed, whatever the client does
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(errorBody('EXPECTATION_FAILED'));
    res.shouldKeepAlive = false;
    res.writeHead(ERROR_CATALOG.EXPECTATION_FAILED.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      Connection: 'close',
    });
    res.end(body);
  });
}

/**
 * RFC 9112 §3.2: a server answers 400 to an HTTP/1.1 request without a `Host` header. Node does so
 * with a bare status line and no body (`requireHostHeader`, which `answerHttpErrors` turns off);
 * this answers it in the error shape: 400 `MALFORMED_REQUEST` with `Connection: close`, as Node
 * closes it. An empty `Host` is accepted, and HTTP/1.0 needs none, as in Node. Mounted before
 * body parsing and routing (`createApp`), after the request log and the security headers.
 */
export function requireHost(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
      res.setHeader('Connection', 'close');
      return sendError(res, 'MALFORMED_REQUEST', 'An HTTP/1.1 request needs a Host header.');
    }
    next();
  };
}
