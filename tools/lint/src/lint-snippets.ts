import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

export interface LintMessage {
  ruleId: string | null;
  message: string;
}

/**
 * Lints each snippet as if it were the named file of the workspace, with the workspace's real ESLint
 * configuration, in one ESLint process (tools/lint/lint-snippets.mjs): the messages of each, in order.
 */
export function lintSnippets(snippets: { filePath: string; source: string }[]): LintMessage[][] {
  // The Nx rule reads the cached project graph; make sure there is one, as `nx run-many -t lint` does.
  const env = { ...process.env, NX_DAEMON: 'false' };
  execFileSync(process.execPath, [join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'show', 'projects'], {
    cwd: root,
    env,
    stdio: 'ignore',
  });
  const output = execFileSync(process.execPath, [join(root, 'tools', 'lint', 'lint-snippets.mjs')], {
    cwd: root,
    env,
    input: JSON.stringify(snippets),
    encoding: 'utf8',
  });
  return JSON.parse(output) as LintMessage[][];
}
