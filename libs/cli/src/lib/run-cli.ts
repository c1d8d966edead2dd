import { DataSource } from 'typeorm';
import { DomainError, ValidationError } from '@lnk/shared/kernel';
import { DataDirNotPrivateError } from '@lnk/shared/embedded-database';
import { ConfigError, loadConfig } from '@lnk/composition';
import { openCliDatabase } from './cli-database';
import { commandHelp, COMMANDS, CommandSession, prepare, usage, UsageError } from './commands';
import type { CliIo } from './commands';

export type { CliIo } from './commands';

const HELP = new Set(['--help', '-h', 'help']);

function describe(error: unknown): string {
  if (error instanceof ValidationError) return error.errors.map((e) => `${e.name}: ${e.error}`).join('; ');
  if (error instanceof DomainError || error instanceof UsageError || error instanceof DataDirNotPrivateError) return error.message;
  return `unexpected error: ${(error as Error)?.message ?? String(error)}`;
}

/** Runs one operator command; returns the exit code (0 done, 2 bad input, 1 a bad setting or anything else). */
export async function runCli(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  const program = env['LNK_CLI_NAME'] || undefined;
  if (!name || HELP.has(name)) {
    // `help <command>` is that command's help.
    const topic = name ? args[0] : undefined;
    if (topic && COMMANDS[topic]) io.stdout(commandHelp(topic, program));
    else if (name) io.stdout(usage(program));
    else io.stderr(usage(program));
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`unknown command: ${name}\n\n${usage(program)}`);
    return 2;
  }
  if (args.some((a) => a === '--help' || a === '-h')) {
    io.stdout(commandHelp(name, program));
    return 0;
  }
  let dataSource: DataSource | undefined;
  let session: CommandSession | undefined;
  try {
    // Options and a password are read first: a mistake costs no database start, and a prompt holds no database open.
    const input = await prepare(command, args, io);
    const config = loadConfig(env);
    dataSource = await openCliDatabase(config.database, config.databaseBounds);
    session = new CommandSession(dataSource, config, command.tellsServers);
    const result = await command.run(input, session);
    io.stdout(JSON.stringify(result));
    return 0;
  } catch (error) {
    // A bad setting is the same lines and exit code as the servers give (configOrExit), not a bad command.
    if (error instanceof ConfigError) {
      io.stderr(error.message);
      return 1;
    }
    io.stderr(`error: ${describe(error)}`);
    const badInput = error instanceof UsageError || error instanceof DomainError;
    return badInput ? 2 : 1;
  } finally {
    await session?.close();
    if (dataSource?.isInitialized) await dataSource.destroy();
  }
}
