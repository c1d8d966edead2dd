// Lints snippets of source as if each were the named file of the workspace, with the workspace's
// ESLint configuration, in one process: reads [{filePath, source}] as JSON on stdin and writes
// [[{ruleId, message}]] as JSON on stdout. Used by the module-boundary tests.
import { ESLint } from 'eslint';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const snippets = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const eslint = new ESLint({ cwd: process.cwd() });
const results = [];
for (const { filePath, source } of snippets) {
  const [report] = await eslint.lintText(source, { filePath });
  results.push(report.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}
process.stdout.write(JSON.stringify(results));
