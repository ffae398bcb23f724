import { isatty } from 'node:tty';
import { LoggerService } from '@nestjs/common';
import pino, { Logger, LoggerOptions } from 'pino';
import pinoPretty from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';

export const REDACTED_PATHS = [
  'req.headers["x-access-token"]',
  'req.headers.authorization',
  'req.headers["x-shopify-hmac-sha256"]',
  '*.apiKey',
  '*.password',
  '*.token',
  'apiKey',
  'password',
  'token',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    base: { service: 'marketplace-admin-api' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // "level":"info" rather than 30: readable, and what log pipelines match on.
    formatters: { level: (label) => ({ level: label }) },
  };
}

/** JSON lines for anything that collects logs; `pretty` (pino-pretty, in-process) for a developer's terminal. */
export function createLogger(level: string, format: LogFormat = 'json', destination: 1 | 2 = 1): Logger {
  if (format === 'pretty') {
    return pino(
      loggerOptions(level),
      pinoPretty({
        destination,
        colorize: isatty(destination),
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,service,context',
        messageFormat: '{if context}[{context}] {end}{msg}',
        singleLine: true,
        errorLikeObjectKeys: ['err'], // `error` is the message of a 4xx, a plain string
      }),
    );
  }
  return pino(loggerOptions(level), pino.destination({ fd: destination, sync: false }));
}

/**
 * Nest contexts whose `log` calls are start-up detail (one line per route and per module), kept
 * at debug so the info level shows what an operator needs.
 */
const DEBUG_CONTEXTS = new Set(['RoutesResolver', 'RouterExplorer', 'InstanceLoader']);

/** Nest's own log lines (bootstrap, errors) through the same JSON logger as the requests. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write(context && DEBUG_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.write('error', message, context, trace);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: pino.Level, message: unknown, context?: string, trace?: string): void {
    if (message !== null && typeof message === 'object') {
      this.logger[level]({
        context,
        ...(trace && !/\n/.test(trace) ? {} : trace ? { stack: trace } : {}),
        ...(message as object),
      });
    } else {
      this.logger[level](
        { context, ...(trace && /\n/.test(trace) ? { stack: trace } : {}) },
        String(message),
      );
    }
  }
}
