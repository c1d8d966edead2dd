import { thisMachine } from './load-generator';
import { printApi, runApiBench } from './api.bench';
import { runMain, writeResult } from './bench-support';
import { printLinks, runLinksBench } from './links.bench';
import { printPasswordGrant, runPasswordGrantBench } from './password-grant.bench';
import { printRedirect, runRedirectBench } from './redirect.bench';
import { printStats, runStatsBench } from './stats.bench';

/**
 * Every benchmark of tools/bench in turn, each on its own app and fresh database, into one summary
 * (tmp/bench/summary.json; the full result of each also in tmp/bench/<name>.json, query plans included).
 * A benchmark that fails is recorded as { error } and the others still run; the exit code is then 1.
 * `wallSeconds` of each section: the time it took, setup included.
 */
runMain(module, async () => {
  const started = Date.now();
  const summary: Record<string, unknown> = {
    benchmark: 'all',
    startedAt: new Date(started).toISOString(),
    machine: thisMachine(),
  };
  const failed: string[] = [];
  /**
   * Runs one benchmark, prints it and writes its full result; the summary keeps `figures` of it (the whole
   * result unless told). Answers the result, or undefined when the benchmark failed.
   */
  const section = async <T extends object>(
    name: string,
    file: string,
    run: () => Promise<T>,
    print: (result: T) => void,
    figures: (result: T) => object = (result) => result,
  ): Promise<T | undefined> => {
    process.stdout.write(`\n== ${name} ==\n`);
    const sectionStarted = Date.now();
    try {
      const result = await run();
      print(result);
      writeResult(file, result);
      summary[name] = { ...figures(result), wallSeconds: Math.round((Date.now() - sectionStarted) / 1000) };
      return result;
    } catch (error) {
      failed.push(name);
      summary[name] = { error: error instanceof Error ? error.message : String(error) };
      process.stderr.write(`bench: ${name} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      return undefined;
    }
  };

  const redirect = await section('redirect', 'redirect', runRedirectBench, printRedirect);
  if (redirect && !redirect.visitsMatch) failed.push('redirect (visits counted)');
  await section(
    'links',
    'links',
    runLinksBench,
    (result) => printLinks(result, { plans: false }),
    ({ plans: _plans, ...figures }) => figures,
  );
  await section('api', 'api', runApiBench, printApi);
  await section('passwordGrant', 'password-grant', runPasswordGrantBench, printPasswordGrant);
  await section(
    'stats',
    'stats',
    runStatsBench,
    (result) => printStats(result, { plan: false }),
    ({ plan: _plan, accountPlans: _accountPlans, ...figures }) => figures,
  );

  summary['totalSeconds'] = Math.round((Date.now() - started) / 1000);
  summary['failed'] = failed;
  const file = writeResult('summary', summary);
  process.stdout.write(`\n${JSON.stringify(summary, null, 2)}\n\nsummary written to ${file}\n`);
  if (failed.length) process.exitCode = 1;
});
