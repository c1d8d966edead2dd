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
  const section = async <T>(name: string, run: () => Promise<T>, report: (result: T) => object): Promise<void> => {
    process.stdout.write(`\n== ${name} ==\n`);
    const sectionStarted = Date.now();
    try {
      summary[name] = { ...report(await run()), wallSeconds: Math.round((Date.now() - sectionStarted) / 1000) };
    } catch (error) {
      failed.push(name);
      summary[name] = { error: error instanceof Error ? error.message : String(error) };
      process.stderr.write(`bench: ${name} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    }
  };

  await section('redirect', runRedirectBench, (result) => {
    printRedirect(result);
    writeResult('redirect', result);
    if (!result.visitsMatch) failed.push('redirect (visits counted)');
    return result;
  });
  await section('links', runLinksBench, (result) => {
    printLinks(result, { plans: false });
    writeResult('links', result);
    const { plans: _plans, ...figures } = result;
    return figures;
  });
  await section('api', runApiBench, (result) => {
    printApi(result);
    writeResult('api', result);
    return result;
  });
  await section('passwordGrant', runPasswordGrantBench, (result) => {
    printPasswordGrant(result);
    writeResult('password-grant', result);
    return result;
  });
  await section('stats', runStatsBench, (result) => {
    printStats(result, { plan: false });
    writeResult('stats', result);
    const { plan: _plan, ...figures } = result;
    return figures;
  });

  summary['totalSeconds'] = Math.round((Date.now() - started) / 1000);
  summary['failed'] = failed;
  const file = writeResult('summary', summary);
  process.stdout.write(`\n${JSON.stringify(summary, null, 2)}\n\nsummary written to ${file}\n`);
  if (failed.length) process.exitCode = 1;
});
