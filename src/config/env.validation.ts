import { IntersectionType } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { OutboundEnv } from './env/outbound.env';
import { RailsEnv } from './env/rails.env';
import { SecurityEnv } from './env/security.env';
import { ServerEnv } from './env/server.env';
import { StoresEnv } from './env/stores.env';

/**
 * Every environment variable the service reads, one class per concern in env/ (their validation
 * and transformation metadata and their defaults carried over by IntersectionType). Validated once
 * at start; a bad value stops the process with a one-line message naming the variable (see `validateEnv`).
 */
export class EnvironmentVariables extends IntersectionType(
  ServerEnv,
  StoresEnv,
  SecurityEnv,
  RailsEnv,
  OutboundEnv,
) {}

export class EnvValidationError extends Error {}

export function validateEnv(raw: Record<string, unknown>): EnvironmentVariables {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(EnvironmentVariables, defined);
  const [first] = validateSync(env, { skipMissingProperties: false });
  if (first) {
    const reason = Object.values(first.constraints ?? {})[0] ?? 'is invalid';
    const shown = reason.startsWith(first.property) ? reason : `${first.property} ${reason}`;
    throw new EnvValidationError(`Invalid configuration: ${shown}`);
  }
  return env;
}
