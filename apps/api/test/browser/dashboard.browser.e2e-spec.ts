import { join } from 'node:path';
import * as speakeasy from 'speakeasy';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildApp, BuiltDist } from '../support/built-app';
import { describeInBrowser, launchBrowser, screenshot } from '../support/browser';
import { seriousViolations } from '../support/dashboard-browser';
import { createAccount, TestAccount } from '../support/identity';
import { startTestApp, TestApp } from '../support/test-app';

describeInBrowser('the dashboard in a real browser (Chromium), against the API on PostgreSQL', () => {
  let built: BuiltDist;
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let account: TestAccount;
  /** Every access token the page was handed (read off the refresh answers), to check sign-out ends them. */
  const handed: string[] = [];
  /** What the browser reported against the page's CSP: nothing, if the build has no inline script or style. */
  const cspReports: string[] = [];
  let totpSecret = '';
  const newPassword = 'a brand new passphrase 42';

  beforeAll(async () => {
    built = await buildApp();
    t = await startTestApp({ env: { DASHBOARD_DIR: join(built.dir, 'apps/web') } });
    account = await createAccount(t);
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
    });
    page.on('response', async (response) => {
      if (new URL(response.url()).pathname === '/app/auth/refresh' && response.status() === 200)
        handed.push(((await response.json()) as { data: { accessToken: string } }).data.accessToken);
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    built?.remove();
  });

  const heading = (name: string, on: Page = page) => on.getByRole('heading', { level: 1, name }).waitFor();

  /** From the dashboard's sign-in page through the authorization page and back, signed in. */
  async function signIn(on: Page, email: string, password: string, otp?: () => string): Promise<void> {
    await on.getByRole('link', { name: 'Sign in' }).click();
    await on.getByRole('heading', { name: 'lnk dashboard wants to use your account' }).waitFor();
    await on.getByLabel('E-mail').fill(email);
    await on.getByLabel('Password').fill(password);
    await on.getByRole('button', { name: 'Approve' }).click();
    if (otp) {
      await on.getByRole('alert').filter({ hasText: 'Enter the one-time code' }).waitFor();
      await on.getByLabel('Password').fill(password);
      await on.getByLabel(/One-time code/).fill(otp());
      await on.getByRole('button', { name: 'Approve' }).click();
    }
    await on.waitForURL(`${t.baseUrl}/app/**`);
  }

  it("signs in without two-factor through the service's authorization page and keeps no token where scripts can read it", async () => {
    await page.goto(`${t.baseUrl}/app/tokens`);
    await heading('Sign in to lnk');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-sign-in');

    await signIn(page, account.email, account.password);
    expect(new URL(page.url()).pathname).toBe('/app/tokens');
    await heading('API tokens');
    await page.getByText(account.email).waitFor();

    const stored = await page.evaluate('({ local: { ...localStorage }, session: { ...sessionStorage }, cookies: document.cookie })');
    expect(stored).toEqual({ local: {}, session: {}, cookies: '' });
    expect(handed.length).toBeGreaterThan(0);
  });

  it('keeps the session across a reload (through the HttpOnly cookie)', async () => {
    await page.reload();
    await heading('API tokens');
    await page.getByText(account.email).waitFor();
  });

  it('creates an API token after asking for the password, shows its value once, and revokes it', async () => {
    await page.getByText('No tokens yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-tokens-empty');

    await page.getByRole('button', { name: 'Create token' }).first().click();
    await page.getByLabel('Name').fill('deploy script');
    await page.getByRole('button', { name: 'Create token' }).last().click();
    // A dashboard session is not a fresh password sign-in: the API asks for the password, and so does the form.
    const password = page.getByLabel('Your current password');
    await password.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-tokens-create');
    await password.fill(account.password);
    await page.getByRole('button', { name: 'Confirm and create' }).click();

    const value = (await page.getByTestId('shown-once-value').textContent()) ?? '';
    expect(value).toMatch(/^tkn_/);
    await screenshot(page, 'dashboard-tokens-shown-once');
    expect((await t.request('GET', '/user/link', { token: value })).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('shown-once-value').count()).toBe(0);
    await page.getByRole('cell', { name: 'deploy script', exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-tokens');

    await page.getByRole('button', { name: 'Revoke deploy script' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('"deploy script" is revoked').waitFor();
    expect((await t.request('GET', '/user/link', { token: value })).status).toBe(401);
    await page.getByText('No tokens yet').waitFor();
  });

  it('enrols two-factor sign-in: the QR code, the secret and ten backup codes shown once, confirmed with a code', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await heading('Account');
    await page.getByText(account.email).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-account');

    const twoFactor = page.getByRole('region', { name: 'Two-factor sign-in' });
    await twoFactor.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await twoFactor.getByLabel('Your current password').fill(account.password);
    await twoFactor.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    totpSecret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(totpSecret).toMatch(/^[A-Z2-7]+=*$/);
    expect(await page.getByTestId('backup-codes').locator('li').count()).toBe(10);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-account-two-factor');

    await twoFactor.getByLabel('One-time code').fill(speakeasy.totp({ secret: totpSecret, encoding: 'base32' }));
    await twoFactor.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page.getByRole('status').filter({ hasText: 'Two-factor sign-in is on' }).waitFor();
  });

  it('changes the password, and stays signed in', async () => {
    await page.getByLabel('Current password', { exact: true }).fill(account.password);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('New password again').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    await page.reload();
    await heading('Account');
    // The old password no longer signs in.
    const old = await t.request('POST', '/oauth/token', {
      body: {
        grant_type: 'password',
        client_id: account.client.clientId,
        client_secret: account.client.clientSecret,
        username: account.email,
        password: account.password,
      },
    });
    expect({ status: old.status, code: old.body.code }).toEqual({ status: 400, code: 'INVALID_GRANT' });
  });

  it('opens a section from the navigation, and a page for unknown addresses', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await heading('Webhooks');
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${t.baseUrl}/app/no/such/page`);
    await heading('Page not found');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-not-found');
  });

  it('fits a phone-width screen, the navigation above the page', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole('link', { name: 'API tokens' }).click();
    await heading('API tokens');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await screenshot(page, 'dashboard-tokens-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('signs out: every access token the page was handed is revoked and the session is gone after a reload', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading('Sign in to lnk');
    await page.getByText('You are signed out.').waitFor();
    for (const token of handed) expect((await t.request('GET', '/user/me', { token })).status).toBe(401);
    await page.reload();
    await heading('Sign in to lnk');
  });

  it('signs in with two-factor through the same pages: the authorization page asks for the one-time code', async () => {
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    try {
      await other.goto(`${t.baseUrl}/app/account`);
      await heading('Sign in to lnk', other);
      // The next 30-second step: the one the enrolment used is not accepted twice.
      await signIn(other, account.email, newPassword, () =>
        speakeasy.totp({ secret: totpSecret, encoding: 'base32', time: Math.floor(Date.now() / 1000) + 30 }),
      );
      await heading('Account', other);
      await other.getByText(account.email).first().waitFor();
    } finally {
      await fresh.close();
    }
  });

  it("ran under the page's CSP without a single violation", () => {
    expect(cspReports).toEqual([]);
  });
});
