import { LoggerService } from '@nestjs/common';
import pino, { Logger, LoggerOptions } from 'pino';

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
  };
}

export function createLogger(level: string, destination: 1 | 2 = 1): Logger {
  return pino(loggerOptions(level), pino.destination({ fd: destination, sync: false }));
}

/** Nest's own log lines (bootstrap, errors) through the same JSON logger as the requests. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
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
