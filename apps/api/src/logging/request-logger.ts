import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LogFn, Logger } from 'pino';

/**
 * A request's logger (Fastify's `request.log`), made when the request first logs a line its level lets
 * through. Pino makes a child at once: it serialises the bindings (the reqId) through the redaction paths
 * into its own JSON chunk. Most requests never log a line at the service's level (the request line moves
 * to debug with LOG_REQUESTS=false; warnings and errors are rare), so that work was done, and thrown away,
 * for almost every request. The child made on demand is the one Fastify would have had: same bindings,
 * same options, same lines.
 */
export class RequestLogger implements FastifyBaseLogger {
  declare readonly fatal: LogFn;
  declare readonly error: LogFn;
  declare readonly warn: LogFn;
  declare readonly info: LogFn;
  declare readonly debug: LogFn;
  declare readonly trace: LogFn;
  declare readonly silent: LogFn;
  private made: Logger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.made ? this.made.level : (this.options.level ?? this.parent.level);
  }

  set level(level: string) {
    this.logger().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  /** Writes a line at `level`, making the child first if the line is to be written. */
  write(level: Level, args: Parameters<LogFn>): void {
    if (!this.made) {
      // Below the level nothing is written: no child needed yet.
      const levels = this.parent.levels.values;
      if (levels[level] < (levels[this.level] ?? Infinity)) return;
    }
    (this.logger()[level] as (...line: unknown[]) => void)(...args);
  }

  private logger(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }
}

for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
  Object.defineProperty(RequestLogger.prototype, level, {
    value: function (this: RequestLogger, ...args: Parameters<LogFn>) {
      this.write(level, args);
    },
  });
}
Object.defineProperty(RequestLogger.prototype, 'silent', { value: () => undefined });
