import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * The whole of standard input, for `--password-stdin`: a password piped in never shows in the process
 * list, the shell history or npm's banner, as one given with `--password` does.
 */
export async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Asks on the terminal without echoing what is typed: readline reads the terminal in raw mode and
 * writes its echo to a stream that drops it; the question and the final newline go to stderr, so
 * stdout keeps only the JSON line. Ctrl-C cancels.
 */
export function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
    const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
    process.stderr.write(question);
    let settled = false;
    rl.on('SIGINT', () => {
      settled = true;
      rl.close();
      process.stderr.write('\n');
      reject(new Error('cancelled'));
    });
    rl.on('close', () => {
      // Ctrl-D: stdin ended before a line was given.
      if (!settled) reject(new Error('no password given'));
    });
    rl.question('', (answer) => {
      settled = true;
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}
