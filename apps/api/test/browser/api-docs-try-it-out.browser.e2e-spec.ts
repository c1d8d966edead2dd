import type { Locator, Page } from 'playwright-core';
import { createAccount, createPublicClient, TestAccount } from '../support/identity';
import { describeInBrowser, screenshot, useBrowserStage } from '../support/browser';

/**
 * Issue 12: the document's server URL was fixed to PUBLIC_BASE_URL (`http://localhost:<PORT>` by default),
 * so Swagger UI opened under any other host name sent its calls cross-origin, where they failed; and the
 * authorization-code flow needed a client registered with the UI's redirect page, which nothing said.
 * PUBLIC_BASE_URL names 127.0.0.1 here.
 */
describeInBrowser('Swagger UI sign-in and "Try it out" in a real browser (Chromium)', () => {
  const stage = useBrowserStage();
  const TIMEOUT = 60_000;

  async function openDocs(origin: string): Promise<{ page: Page; failed: string[] }> {
    const page = await stage.browser.newPage();
    page.setDefaultTimeout(15_000);
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
    await page.goto(`${origin}/docs`);
    await page.locator('.opblock').first().waitFor();
    await page.locator('.auth-wrapper .authorize').click();
    return { page, failed };
  }

  /** Closes the Authorize dialog, then GET /user/me through "Try it out": it must reach `origin` and answer the account. */
  async function tryMe(page: Page, origin: string, account: TestAccount): Promise<void> {
    await page.locator('.modal-ux .close-modal').click();
    const me: Locator = page.locator('.opblock-get').filter({ has: page.locator('[data-path="/user/me"]') });
    await me.locator('.opblock-summary-control').click();
    await me.getByRole('button', { name: 'Try it out' }).click();
    const [answer] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/user/me'),
      me.getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(new URL(answer.url()).origin).toBe(origin);
    expect(answer.status()).toBe(200);
    expect((await answer.json()).data.email).toBe(account.email);
    const status = me.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
  }

  /**
   * Once `flow` is authorised, "Try it out" of GET /user/me (tryMe), pictured as `shot`, with no request of the
   * page failed; then the page is closed.
   */
  async function tryMeSignedIn(
    docs: { page: Page; failed: string[] },
    flow: Locator,
    shot: string,
    expected: { origin: string; account: TestAccount },
  ): Promise<void> {
    await flow.getByRole('button', { name: 'Remove authorization' }).waitFor();
    await tryMe(docs.page, expected.origin, expected.account);
    await screenshot(docs.page, shot);
    expect(docs.failed).toEqual([]);
    await docs.page.close();
  }

  it(
    'opened on a host name other than PUBLIC_BASE_URL, signs in with the password flow and calls the API on the origin it was opened on',
    async () => {
      const origin = stage.t.baseUrl.replace('127.0.0.1', 'localhost');
      expect(stage.t.config.publicBaseUrl).not.toContain('localhost');
      const account = await createAccount(stage.t);
      const { page, failed } = await openDocs(origin);
      const passwordFlow = page.locator('.auth-container').filter({ hasText: 'Flow: password' });
      await passwordFlow.locator('#oauth_username').fill(account.email);
      await passwordFlow.locator('#oauth_password').fill(account.password);
      await passwordFlow.locator('#password_type').selectOption('request-body');
      await passwordFlow.locator('#client_id_password').fill(account.client.clientId);
      await passwordFlow.locator('#client_secret_password').fill(account.client.clientSecret);
      await passwordFlow.locator('label[for="user:read-password-checkbox-oauth2"]').click();
      const [token] = await Promise.all([
        page.waitForResponse((response) => new URL(response.url()).pathname === '/oauth/token'),
        passwordFlow.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click(),
      ]);
      // The relative token URL resolves against the page's own origin.
      expect([new URL(token.url()).origin, token.status()]).toEqual([origin, 200]);
      await tryMeSignedIn({ page, failed }, passwordFlow, 'api-docs-try-it-out', { origin, account });
    },
    TIMEOUT,
  );

  it(
    'signs in with the authorization-code flow (PKCE) through a public client registered with the documented redirect page',
    async () => {
      const origin = stage.t.config.publicBaseUrl;
      const account = await createAccount(stage.t);
      // What the oauth2 scheme's description tells the operator to register.
      const client = await createPublicClient(stage.t, { redirectUris: [`${origin}/docs/oauth2-redirect.html`] });
      const { page, failed } = await openDocs(origin);
      // The redirect URI Swagger UI sends is the documented page (at /docs it was /oauth2-redirect.html, no such page).
      expect(await page.evaluate('window.ui.getConfigs().oauth2RedirectUrl')).toBe(`${origin}/docs/oauth2-redirect.html`);
      const codeFlow = page.locator('.auth-container').filter({ hasText: 'authorizationCode with PKCE' });
      await codeFlow.locator('#client_id_authorizationCode').fill(client.clientId);
      await codeFlow.locator('label[for="user:read-authorizationCode-checkbox-oauth2"]').click();
      const [popup] = await Promise.all([
        page.waitForEvent('popup'),
        codeFlow.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click(),
      ]);
      await popup.getByLabel('E-mail').fill(account.email);
      await popup.getByLabel('Password').fill(account.password);
      // The redirect page hands the code to the UI and closes itself; the UI then redeems it.
      await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Approve' }).click()]);
      await tryMeSignedIn({ page, failed }, codeFlow, 'api-docs-authorization-code', { origin, account });
    },
    TIMEOUT,
  );
});
