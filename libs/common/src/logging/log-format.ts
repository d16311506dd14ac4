import { writeSync } from 'node:fs';
import pino, { DestinationStream } from 'pino';
import { AppConfig } from '../config/app-config';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Fields every line has, or that the line's text already says. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'context', 'msg', 'req', 'res', 'responseTime', 'err']);
/** An extra field's value is cut to this many characters (a migration list, a start-up breakdown). */
const VALUE_LIMIT = 120;

/**
 * One pino JSON line as one readable line (`LOG_FORMAT=pretty`, docs/operations.md "Logs"):
 * `HH:MM:SS.mmm LEVEL message key=value …` in local time; a request's completion line as
 * `request completed GET /api/… 200 3 ms`; an error's stack on the lines below it, indented. `colour`
 * adds ANSI colours to the level and dims the extra fields. A line that is not JSON is returned
 * as it is.
 */
export function formatLogLine(line: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now());
  const clock = [time.getHours(), time.getMinutes(), time.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
  const stamp = `${clock}.${String(time.getMilliseconds()).padStart(3, '0')}`;
  const name = LEVELS[level] ?? String(level);
  let text = typeof entry.msg === 'string' ? entry.msg : '';
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method) {
    text += ` ${req.method} ${req.url ?? ''}`;
    if (res?.statusCode !== undefined) text += ` ${res.statusCode}`;
    if (typeof entry.responseTime === 'number') text += ` ${Math.round(entry.responseTime)} ms`;
  }
  const extras = Object.entries(entry)
    .filter(([key]) => !SHOWN.has(key))
    .map(([key, value]) => {
      const shown = typeof value === 'string' ? value : JSON.stringify(value);
      return `${key}=${shown.length > VALUE_LIMIT ? `${shown.slice(0, VALUE_LIMIT - 1)}…` : shown}`;
    })
    .join(' ');
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}` : '';
  if (!colour) return `${stamp} ${name} ${text}${extras ? ` ${extras}` : ''}${stack}\n`;
  const paint = (code: string, s: string) => `\u001b[${code}m${s}\u001b[0m`;
  return `${paint('90', stamp)} ${paint(COLOURS[level] ?? '0', name)} ${text}${extras ? ` ${paint('90', extras)}` : ''}${stack}\n`;
}

/** pino's stream for `LOG_FORMAT=pretty`: each line formatted and written to stdout synchronously (a terminal's, for reading). */
class PrettyStdout implements DestinationStream {
  private readonly colour = process.stdout.isTTY === true && !process.env.NO_COLOR;

  write(chunk: string): void {
    for (const line of chunk.split('\n')) if (line) writeSync(1, formatLogLine(line, this.colour));
  }
}

/**
 * Where the server's loggers write (the process logger, the request log, Nest's logger): stdout,
 * as pino's JSON lines (`json`) or one readable line each (`pretty`), after `config.logFormat`.
 * Redaction happens before, in pino, so both carry the same (secret-free) content.
 */
export function logDestination(config: Pick<AppConfig, 'logFormat'>): DestinationStream {
  return config.logFormat === 'pretty' ? new PrettyStdout() : pino.destination(1);
}
