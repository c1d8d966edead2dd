import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the documentation's command blocks are run with: one bash for a page's blocks, in order, so that
 * `TOKEN=…` in one block is there in the next, and the documented outputs compared with what they print.
 */

/** The expected output as a pattern: literal text, `…` any text (the shortest that fits). */
export function matchesShown(expected: string, actual: string): boolean {
  const pattern = expected
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(actual);
}

export interface ShellOptions {
  /** Standard error into the same stream as standard output, as a terminal shows both (the docs' outputs). */
  mergeStderr?: boolean;
}

export class Shell {
  private readonly child: ChildProcessWithoutNullStreams;
  private stdout = '';
  private stderr = '';
  private count = 0;

  constructor(
    private readonly cwd: string,
    env: NodeJS.ProcessEnv,
    prelude: string,
    private readonly options: ShellOptions = {},
  ) {
    this.child = spawn('bash', ['--noprofile', '--norc'], { cwd, env });
    this.child.stdout.on('data', (chunk: Buffer) => (this.stdout += chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.child.stdin.write(`${prelude}\n`);
  }

  /** Runs one block (its commands read no input of ours), answering what it printed and its status. */
  async run(command: string, timeoutMs = 60_000): Promise<{ output: string; status: number; stderr: string }> {
    const id = ++this.count;
    const file = join(this.cwd, `.step-${id}.sh`);
    writeFileSync(file, `${command}\n`);
    const marker = new RegExp(`\\n<<<doc-step ${id} (\\d+)>>>\\n`);
    this.stdout = '';
    this.stderr = '';
    const redirect = this.options.mergeStderr ? ' 2>&1' : '';
    this.child.stdin.write(`source ${JSON.stringify(file)} </dev/null${redirect}; printf '\\n<<<doc-step ${id} %s>>>\\n' "$?"\n`);
    const started = Date.now();
    for (;;) {
      const found = marker.exec(this.stdout);
      if (found) return { output: this.stdout.slice(0, found.index).trim(), status: Number(found[1]), stderr: this.stderr };
      if (this.child.exitCode !== null) throw new Error(`the shell exited (${this.child.exitCode}):\n${this.stderr}`);
      if (Date.now() - started > timeoutMs)
        throw new Error(`the step did not finish within ${timeoutMs} ms:\n${command}\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
