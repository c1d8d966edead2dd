import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { call, spawnBuiltApp, SpawnedApp, useBuiltApp } from '../support/built-app';

/**
 * NODE_ENV=production as the built app starts: the development defaults that are unsafe in production
 * (the sandbox checkout that pays any session, a per-instance key file, an open /metrics) stop the start.
 */
describe('the built app in production (NODE_ENV=production)', () => {
  let app: SpawnedApp | undefined;
  const fixture = useBuiltApp(async () => app?.stop(5000));
  const SECRET_KEY = 'f'.repeat(64);

  it('refuses to start without SECRET_KEY, a payment setting and a /metrics setting, naming each', async () => {
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
    expect(failure).toContain('STRIPE_SECRET_KEY is required in production (or BILLING_SANDBOX=true');
    expect(failure).toContain('METRICS_TOKEN is required in production (or METRICS_PUBLIC=true');
    expect(failure).toContain('SECRET_KEY is required in production');
  });

  it('starts once they are given: /metrics asks for its token, and no key file is made', async () => {
    const { dist, db } = fixture();
    app = await spawnBuiltApp(dist, { ...db.env, NODE_ENV: 'production', SECRET_KEY, BILLING_SANDBOX: 'true', METRICS_TOKEN: 'scrape-secret-456' });
    expect((await call(app.baseUrl, 'GET', '/metrics')).status).toBe(401);
    expect((await call(app.baseUrl, 'GET', '/metrics', { token: 'scrape-secret-456' })).status).toBe(200);
    expect(existsSync(join(db.env['DATA_DIR'] as string, 'secret.key'))).toBe(false);
    await app.stop();
  });
});
