import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { call, spawnBuiltApp, SpawnedApp, spawnBuiltRedirect, spawnBuiltWorker, useBuiltApp } from '../support/built-app';

/**
 * NODE_ENV=production as the built app starts: the development defaults that are unsafe in production
 * (a per-instance key file, an open /metrics) stop the start. A payment setting is not one of them: without
 * one, billing is off (a self-hosted instance takes no payments), never the sandbox that pays any session.
 */
describe('the built app in production (NODE_ENV=production)', () => {
  let app: SpawnedApp | undefined;
  const fixture = useBuiltApp(async () => app?.stop(5000));
  const SECRET_KEY = 'f'.repeat(64);

  it('refuses to start without SECRET_KEY and a /metrics setting, naming each', async () => {
    const { dist, db } = fixture();
    const failure = await spawnBuiltApp(dist, { ...db.env, NODE_ENV: 'production' }).then(
      (started) => {
        app = started;
        return 'started';
      },
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/exited before it answered \({"code":1,"signal":null}\)/);
    expect(failure).toContain('Invalid configuration');
    expect(failure).not.toContain('STRIPE');
    expect(failure).toContain('METRICS_TOKEN is required in production (or METRICS_PUBLIC=true');
    expect(failure).toContain('SECRET_KEY is required in production');
  });

  it('starts once they are given, with no payment setting: /metrics asks for its token, and no key file is made', async () => {
    const { dist, db } = fixture();
    app = await spawnBuiltApp(dist, { ...db.env, NODE_ENV: 'production', SECRET_KEY, METRICS_TOKEN: 'scrape-secret-456' });
    expect((await call(app.baseUrl, 'GET', '/metrics')).status).toBe(401);
    expect((await call(app.baseUrl, 'GET', '/metrics', { token: 'scrape-secret-456' })).status).toBe(200);
    expect(existsSync(join(db.env['DATA_DIR'] as string, 'secret.key'))).toBe(false);
    await app.stop();
  });

  // Each process reads its configuration the same way (configOrExit): a bad value is one error naming it
  // and exit 1 before anything starts, not a stack trace or a process left running half set up.
  it('stops the redirect app and the delivery worker at start-up on a bad value, with the same one error', async () => {
    const { dist, db } = fixture();
    const failureOf = (start: Promise<{ stop(): Promise<unknown> }>) =>
      start.then(
        async (started) => {
          await started.stop();
          return 'started';
        },
        (error: Error) => error.message,
      );
    const redirect = await failureOf(
      spawnBuiltRedirect(dist, { DATABASE_URL: 'postgres://127.0.0.1:1/none', CLICK_FLUSH_INTERVAL: 'soon' }),
    );
    expect(redirect).toMatch(/exited before it answered \({"code":1,"signal":null}\)/);
    expect(redirect).toContain('Invalid configuration');
    expect(redirect).toContain('CLICK_FLUSH_INTERVAL');
    const worker = await failureOf(spawnBuiltWorker(dist, { ...db.env, WEBHOOKS_WORKER_NICE: '40' }));
    expect(worker).toMatch(/exited before it started \({"code":1,"signal":null}\)/);
    expect(worker).toContain('Invalid configuration');
    expect(worker).toContain('WEBHOOKS_WORKER_NICE');
  });
});
