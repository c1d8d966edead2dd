// The operator CLI's commands (apps/cli runs them; the API's end-to-end tests run them in process, beside the API).
export { runCli, type CliIo } from './lib/run-cli';
export { COMMANDS, DEFAULT_PROGRAM, UsageError } from './lib/commands';
