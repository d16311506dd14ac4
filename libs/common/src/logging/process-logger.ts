import { LoggerService } from '@nestjs/common';
import pino, { Logger as PinoInstance } from 'pino';
import { AppConfig } from '../config/app-config';
import { logDestination } from './log-format';

/**
 * The server process's own logger (start-up, migrations, shutdown): pino lines on stdout in the
 * same shape as the request logs (`level`, `time`, `pid`, `hostname`, `msg`), JSON or, with
 * `LOG_FORMAT=pretty` (a terminal's default), one readable line each (`logDestination`). `context`
 * says which part wrote it.
 */
export function createProcessLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>): PinoInstance {
  return pino({ level: config.logLevel }, logDestination(config)).child({ context: 'Meridian' });
}

/** Nest's start-up chatter: one line per module and per route (≈300 lines), shown only at `debug`. */
const START_UP_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/**
 * Wraps Nest's logger (nestjs-pino) and sends the framework's start-up messages (modules
 * initialised, "Mapped {…} route") to `debug` instead of `info`. Everything else passes through.
 */
export class QuietStartupLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...optional: unknown[]): void {
    const context = optional[optional.length - 1];
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) {
      this.inner.debug?.(message, ...optional);
      return;
    }
    this.inner.log(message, ...optional);
  }

  error(message: unknown, ...optional: unknown[]): void {
    this.inner.error(message, ...optional);
  }

  warn(message: unknown, ...optional: unknown[]): void {
    this.inner.warn(message, ...optional);
  }

  debug(message: unknown, ...optional: unknown[]): void {
    this.inner.debug?.(message, ...optional);
  }

  verbose(message: unknown, ...optional: unknown[]): void {
    this.inner.verbose?.(message, ...optional);
  }

  fatal(message: unknown, ...optional: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...optional);
  }
}
