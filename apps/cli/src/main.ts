import 'reflect-metadata';
import { runCli } from '@lnk/cli';
import { promptHidden, readAllStdin } from './secret-input';

runCli(process.argv.slice(2), process.env, {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  readStdin: readAllStdin,
  // Only a terminal can be asked; from a pipe or /dev/null a password comes with --password-stdin.
  ...(process.stdin.isTTY ? { promptSecret: promptHidden } : {}),
}).then((code) => {
  process.exitCode = code;
});
