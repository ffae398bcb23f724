import type { INestApplicationContext } from '@nestjs/common';
import type { ProgressFactory } from './progress';

/** Parsed option values by option name (`--domain` → `domain`), as commander hands them over. */
export type CliArgs = Record<string, string | number | undefined>;

export interface CliOption {
  /** commander flags: `--domain <domain>` (every option takes a value). */
  flags: string;
  description: string;
  required?: boolean;
  defaultValue?: string | number;
  /** Turns the raw text into the value (validated before the app connects); throws CliUsageError. */
  parse?: (value: string) => string | number;
}

/** One operator command: declares its options, returns the JSON object the CLI prints. */
export interface CliCommand {
  name: string;
  description: string;
  options: CliOption[];
  run(
    app: INestApplicationContext,
    args: CliArgs,
    progress?: ProgressFactory,
  ): Promise<Record<string, unknown>>;
}

/** Wrong use of the CLI (exit 2), as opposed to a refused operation (exit 1). */
export class CliUsageError extends Error {}

export function requireString(args: CliArgs, name: string): string {
  const v = args[name];
  if (typeof v !== 'string' || v.trim() === '') throw new CliUsageError(`--${name} is required`);
  return v.trim();
}

export function optionalString(args: CliArgs, name: string): string | undefined {
  const v = args[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
