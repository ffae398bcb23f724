import type { INestApplicationContext } from '@nestjs/common';

export type CliArgs = Record<string, string | true>;

/** One operator command: reads flags, returns the JSON object the CLI prints. */
export interface CliCommand {
  name: string;
  usage: string;
  run(app: INestApplicationContext, args: CliArgs): Promise<Record<string, unknown>>;
}

export class CliUsageError extends Error {}

export function parseArgs(argv: string[]): { command?: string; args: CliArgs } {
  const [command, ...rest] = argv;
  const args: CliArgs = {};
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i];
    if (!token.startsWith('--')) throw new CliUsageError(`Unexpected argument "${token}"`);
    const eq = token.indexOf('=');
    if (eq > 0) {
      args[token.slice(2, eq)] = token.slice(eq + 1);
    } else if (i + 1 < rest.length && !rest[i + 1].startsWith('--')) {
      args[token.slice(2)] = rest[++i];
    } else {
      args[token.slice(2)] = true;
    }
  }
  return { command, args };
}

export function requireString(args: CliArgs, name: string): string {
  const v = args[name];
  if (typeof v !== 'string' || v.trim() === '') throw new CliUsageError(`--${name} is required`);
  return v.trim();
}
