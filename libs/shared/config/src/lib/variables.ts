/**
 * An app's configuration as one table: each environment variable with the default and description the
 * documentation (docs/configuration.md) shows, and the parser that reads it. `readVariables` reads the whole table and collects every
 * problem, so a bad configuration stops the start with one error naming each variable at fault.
 */

/** Reads a set, non-empty value; throws an Error saying what is wrong ("must be ..."). */
export type Parse<T> = (raw: string) => T;

/** A parser that answers for an unset variable itself (`optional`, `required`) instead of reading the default. */
export interface ParseUnset<T> {
  (raw: string | undefined): T;
  readonly readsUnset: true;
}

export interface Variable<T = unknown> {
  /**
   * What an unset (or empty) variable means, as docs/configuration.md shows it. A plain parser reads this text as the
   * value, so the documented default is the one used; `optional` and `required` parsers get nothing instead.
   */
  readonly default: string;
  readonly description: string;
  readonly parse: Parse<T> | ParseUnset<T>;
}

export type VariableTable = Readonly<Record<string, Variable>>;

/** The value each variable of the table was read as. */
export type ValuesOf<T extends VariableTable> = { -readonly [K in keyof T]: T[K]['parse'] extends (raw: never) => infer R ? R : never };

/** One line per problem, each whole on its own (`Invalid configuration: TRUST_PROXY must be ...`), so a log or a grep shows it all. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.map((p) => `Invalid configuration: ${p}`).join('\n'));
  }
}

/**
 * Reads every variable of the table from `env`. A variable that fails gets its default value (or none
 * when it is required), so the checks between variables still run and report their own problems in the
 * same start-up error. Each problem starts with the variable's name.
 */
export function readVariables<T extends VariableTable>(
  table: T,
  env: Readonly<Record<string, string | undefined>>,
): { values: ValuesOf<T>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(table)) {
    const raw = env[name] === '' ? undefined : env[name];
    try {
      values[name] = read(variable, raw);
    } catch (error) {
      const message = (error as Error).message;
      problems.push(message.startsWith(name) ? message : `${name} ${message}`);
      try {
        values[name] = read(variable, undefined);
      } catch {
        values[name] = undefined;
      }
    }
  }
  return { values: values as ValuesOf<T>, problems };
}

function read(variable: Variable, raw: string | undefined): unknown {
  return 'readsUnset' in variable.parse ? variable.parse(raw) : variable.parse(raw ?? variable.default);
}

/**
 * A process's configuration read at start-up, or its end: a ConfigError (every problem, one per line) is
 * written to stderr and the process exits 1, before anything is started. Any other error is thrown.
 */
export function configOrExit<C>(load: () => C): C {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return process.exit(1);
  }
}
