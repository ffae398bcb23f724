import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { queuesReady } from '../queues/queues';
import { DomainError } from '../common/errors';
import { EnvValidationError } from '../config/env.validation';
import { CliCommand, CliUsageError, parseArgs } from './cli-command';
import { payoutsCommands } from './payouts.commands';
import { seedCommands } from './seed.commands';
import { shopCommands } from './shop.commands';

/** Every operator command; feature issues add theirs here. */
export const COMMANDS: CliCommand[] = [...shopCommands, ...payoutsCommands, ...seedCommands];

function print(obj: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

/** `npm run --silent cli -- <command> [--flag value]`: exactly one JSON object on stdout, non-zero exit on error. */
async function main(argv: string[]): Promise<number> {
  const { command, args } = parseArgs(argv);
  const cmd = COMMANDS.find((c) => c.name === command);
  if (!cmd) {
    print({
      error: command ? `Unknown command "${command}"` : 'No command given',
      commands: COMMANDS.map((c) => c.usage),
    });
    return 2;
  }
  const app = await NestFactory.createApplicationContext(AppModule.forRole('cli'), {
    logger: false,
    abortOnError: false,
  });
  try {
    await queuesReady(app);
    print(await cmd.run(app, args));
    return 0;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof DomainError || err instanceof CliUsageError || err instanceof EnvValidationError) {
      print({ error: err.message });
      process.exit(err instanceof CliUsageError ? 2 : 1);
    }
    print({ error: `Unexpected failure: ${(err as Error)?.message ?? String(err)}` });
    process.exit(1);
  },
);
