import { httpCall, Latency, latencyOf, ratio, runMain, timeCalls, withBenchApp, writeResult } from './bench-support';

export interface PasswordGrantResult {
  benchmark: 'passwordGrant';
  bcryptCost: number;
  health: Latency;
  /** POST /oauth/token grant_type=password, sequential calls. */
  passwordGrant: Latency & { p50RatioToHealth: number };
  note: string;
}

/**
 * Sign-in latency through the password grant with the app's default bcrypt cost (12): one bcrypt
 * comparison per call, which is most of its time by design; GET /health sequential in the same run.
 */
export async function runPasswordGrantBench(options: { runs?: number } = {}): Promise<PasswordGrantResult> {
  const runs = options.runs ?? Number(process.env['BENCH_GRANT_RUNS'] ?? 50);
  const bcryptCost = 12;
  return withBenchApp({ BCRYPT_COST: String(bcryptCost) }, async (app) => {
    const health = latencyOf(await timeCalls(httpCall(`${app.baseUrl}/health`), runs));
    const signIn = httpCall(`${app.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        username: app.email,
        password: app.password,
      }),
    });
    const grant = latencyOf(await timeCalls(signIn, runs, 3));
    return {
      benchmark: 'passwordGrant' as const,
      bcryptCost,
      health,
      passwordGrant: { ...grant, p50RatioToHealth: ratio(grant.p50Ms, health.p50Ms) },
      note:
        `BCRYPT_COST=${bcryptCost} (the app's default): one bcrypt comparison per sign-in ` +
        `dominates this latency on purpose; p99 of ${runs} calls is about the slowest one`,
    };
  });
}

export function printPasswordGrant(result: PasswordGrantResult): void {
  process.stdout.write(`GET /health (sequential)      p50 ${result.health.p50Ms} ms   p99 ${result.health.p99Ms} ms\n`);
  process.stdout.write(
    `POST /oauth/token (password) p50 ${result.passwordGrant.p50Ms} ms   p99 ${result.passwordGrant.p99Ms} ` +
      `ms   ${result.passwordGrant.p50RatioToHealth}x health (bcrypt cost ${result.bcryptCost})\n`,
  );
}

runMain(module, async () => {
  const result = await runPasswordGrantBench();
  printPasswordGrant(result);
  process.stdout.write(`summary written to ${writeResult('password-grant', result)}\n`);
});
