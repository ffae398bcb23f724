import '../config/dotenv';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Command, CommanderError, Option } from 'commander';
import { AppModule } from '../app.module';
import { queuesReady } from '../queues/queues';
import { DomainError } from '../common/errors';
import { EnvValidationError } from '../config/env.validation';
import { CliArgs, CliCommand, CliOption, CliUsageError } from './cli-command';
import { payoutsCommands } from './payouts.commands';
import { productsCommands } from './products.commands';
import { reconcileCommands } from './reconcile.commands';
import { stderrProgress } from './progress';
import { secretsCommands } from './secrets.commands';
import { seedCommands } from './seed.commands';
import { shopCommands } from './shop.commands';
import { transfersCommands } from './transfers.commands';

/** Every operator command; feature issues add theirs here. */
export const COMMANDS: CliCommand[] = [
  ...shopCommands,
  ...payoutsCommands,
  ...transfersCommands,
  ...reconcileCommands,
  ...productsCommands,
  ...seedCommands,
  ...secretsCommands,
];

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

const HELP_FOOTER = `
Each command prints exactly one JSON object on stdout (so \`> out.json\` captures only the result).
Errors print one JSON object {"error": "..."} on stderr; progress of long commands goes to stderr.
Exit codes: 0 done, 1 refused or failed, 2 wrong usage.
The service's environment applies (MONGODB_URI, REDIS_URL, QUEUE_PREFIX, ...); .env is read when present.`;

function printResult(obj: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

function printError(message: string, extra: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ error: message, ...extra })}\n`);
}

const FLAG_LIKE = /^--?[A-Za-z]/;

/**
 * Every option takes a value: commander would take the next flag as that value (`--domain --name x`),
 * so a value that looks like a flag is reported as missing, in commander's own words.
 */
function valueParser(option: CliOption): (raw: string) => string | number {
  return (raw) => {
    const value = raw.trim();
    if (value === '' || FLAG_LIKE.test(value)) {
      throw new CliUsageError(`option '${option.flags}' argument missing`);
    }
    return option.parse ? option.parse(value) : value;
  };
}

/** The commander program; `chosen` receives the command to run once parsing succeeded. */
function buildProgram(chosen: (cmd: CliCommand, args: CliArgs) => void): Command {
  const program = new Command()
    .name('npm run --silent cli --')
    .usage('<command> [options]')
    .description('Operator commands of the Marketplace Admin API.')
    .helpOption('-h, --help', 'show help; `help <command>` for one command')
    .addHelpText('after', HELP_FOOTER)
    // Errors become one JSON object on stderr (below); help still goes to stdout as text.
    .configureOutput({ writeErr: () => undefined, outputError: () => undefined })
    .exitOverride();
  for (const cmd of COMMANDS) {
    const sub = program.command(cmd.name).description(cmd.description);
    for (const o of cmd.options) {
      const opt = new Option(o.flags, o.required ? `${o.description} (required)` : o.description);
      opt.argParser(valueParser(o));
      if (o.required) opt.makeOptionMandatory();
      if (o.defaultValue !== undefined) opt.default(o.defaultValue);
      sub.addOption(opt);
    }
    sub.action((opts: CliArgs) => chosen(cmd, opts));
  }
  return program;
}

/** commander's verdict as the CLI's JSON error and exit code (help and `help <command>` exit 0). */
function commanderExit(err: CommanderError): number {
  if (err.exitCode === 0) return 0;
  const commands = COMMANDS.map((c) => c.name);
  if (err.code === 'commander.help') {
    printError('No command given; see --help', { commands });
  } else {
    const message = err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    printError(message, err.code === 'commander.unknownCommand' ? { commands } : {});
  }
  return EXIT_USAGE;
}

/** `npm run --silent cli -- <command> [--flag value]`: one JSON object on stdout, or `{error}` on stderr. */
async function main(argv: string[]): Promise<number> {
  let selected: { cmd: CliCommand; args: CliArgs } | undefined;
  try {
    buildProgram((cmd, args) => (selected = { cmd, args })).parse(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return commanderExit(err);
    throw err;
  }
  if (!selected) return 0;
  const { cmd, args } = selected;
  const app = await NestFactory.createApplicationContext(AppModule.forRole('cli'), {
    logger: false,
    abortOnError: false,
  });
  try {
    await queuesReady(app);
    const result = await cmd.run(app, args, stderrProgress(cmd.name));
    printResult(result);
    // A check command (payouts:reconcile) prints its verdict and fails the exit code when it found a difference.
    return result.ok === false ? EXIT_FAILED : 0;
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof CliUsageError) {
      printError(err.message);
      process.exit(EXIT_USAGE);
    }
    if (err instanceof DomainError || err instanceof EnvValidationError) {
      printError(err.message);
      process.exit(EXIT_FAILED);
    }
    printError(`Unexpected failure: ${(err as Error)?.message ?? String(err)}`);
    process.exit(EXIT_FAILED);
  },
);
