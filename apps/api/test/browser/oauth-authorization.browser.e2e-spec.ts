import * as oauth from 'oauth4webapi';
import type { Page } from 'playwright-core';
import { createAccount, createFirstPartyClient, TestAccount, TestClient } from '../support/identity';
import { describeInBrowser, screenshot, useBrowserStage } from '../support/browser';

describeInBrowser('OAuth authorization code flow in a real browser (Chromium)', () => {
  const stage = useBrowserStage();

  const callbackUri = () => `${stage.landing.url}/callback`;

  /** A user, a first-party client whose only redirect URI is the landing server, and a PKCE-protected authorize URL. */
  async function prepare(): Promise<{ account: TestAccount; client: TestClient; authorizeUrl: string; state: string; verifier: string }> {
    const account = await createAccount(stage.t);
    const client = await createFirstPartyClient(stage.t, account.id, { redirectUris: [callbackUri()] });
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const state = oauth.generateRandomState();
    const authorize = new URL(`${stage.t.baseUrl}/oauth/authorize`);
    const params = {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: callbackUri(),
      scope: 'links:read user:read',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    for (const [key, value] of Object.entries(params)) authorize.searchParams.set(key, value);
    return { account, client, authorizeUrl: authorize.toString(), state, verifier };
  }

  /** Opens the authorize URL and waits for the service's own authorization page. */
  async function openAuthorizationPage(authorizeUrl: string): Promise<Page> {
    const page = await stage.browser.newPage();
    const response = await page.goto(authorizeUrl);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).origin).toBe(stage.t.baseUrl);
    expect(new URL(page.url()).pathname).toBe('/oauth/authorize/page');
    await page.getByRole('heading', { name: 'First-party test client wants to use your account' }).waitFor();
    expect(await page.locator('.scopes').textContent()).toContain('links:read');
    return page;
  }

  it('signs in on the authorization page, approves, lands on the redirect URI with a code, and the code buys a working token', async () => {
    const { account, client, authorizeUrl, state, verifier } = await prepare();
    const page = await openAuthorizationPage(authorizeUrl);
    await screenshot(page, 'oauth-authorization-page');

    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await Promise.all([page.waitForURL(`${callbackUri()}?**`), page.getByRole('button', { name: 'Approve' }).click()]);
    await screenshot(page, 'oauth-authorization-approved');

    const landed = new URL(page.url());
    expect(landed.origin + landed.pathname).toBe(callbackUri());
    expect(landed.searchParams.get('state')).toBe(state);
    expect(landed.searchParams.get('error')).toBeNull();
    expect(landed.searchParams.get('iss')).toBe(stage.t.baseUrl);
    const code = landed.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    // The client app itself was asked for the callback with the code and state (its page drops '&' from what it echoes).
    const seen = (await page.locator('#where').textContent()) ?? '';
    expect(seen.startsWith('/callback?')).toBe(true);
    expect(seen).toContain(`code=${code}`);
    expect(seen).toContain(`state=${state}`);
    await page.close();

    const exchanged = await stage.t.request('POST', '/oauth/token', {
      body: {
        grant_type: 'authorization_code',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code,
        redirect_uri: callbackUri(),
        code_verifier: verifier,
      },
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.data).toMatchObject({
      token_type: 'Bearer',
      scope: 'user:read links:read',
      access_token: expect.stringMatching(/^at_/),
    });
    const me = await stage.t.request('GET', '/user/me', { token: exchanged.body.data.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: account.id, email: account.email });

    // The code is single-use.
    const again = await stage.t.request('POST', '/oauth/token', {
      body: {
        grant_type: 'authorization_code',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code,
        redirect_uri: callbackUri(),
        code_verifier: verifier,
      },
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_GRANT');
  });

  it('sends the browser back with access_denied and the state when the user denies', async () => {
    const { authorizeUrl, state } = await prepare();
    const page = await openAuthorizationPage(authorizeUrl);

    await Promise.all([page.waitForURL(`${callbackUri()}?**`), page.getByRole('button', { name: 'Deny' }).click()]);
    await screenshot(page, 'oauth-authorization-denied');

    const landed = new URL(page.url());
    expect(landed.origin + landed.pathname).toBe(callbackUri());
    expect(Object.fromEntries(landed.searchParams)).toEqual({ error: 'access_denied', state, iss: stage.t.baseUrl });
    expect(await page.locator('#where').textContent()).toContain('error=access_denied');
    await page.close();
  });

  it('shows the error on the page for a wrong password and stays there', async () => {
    const { account, authorizeUrl, state } = await prepare();
    const page = await openAuthorizationPage(authorizeUrl);

    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password').fill('not the password');
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/oauth/authorize'),
      page.getByRole('button', { name: 'Approve' }).click(),
    ]);
    expect(answer.status()).toBe(401);
    await page.getByRole('alert').waitFor();
    await screenshot(page, 'oauth-authorization-wrong-password');

    expect(await page.getByRole('alert').textContent()).toBe('Invalid username or password');
    expect(new URL(page.url()).origin).toBe(stage.t.baseUrl);
    expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
    expect(page.url().startsWith(stage.landing.url)).toBe(false);
    // The page is the form again: e-mail kept, password emptied, the buttons still there.
    expect(await page.getByLabel('E-mail').inputValue()).toBe(account.email);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Approve' }).waitFor();

    // The re-rendered form still works: the right password goes through.
    await page.getByLabel('Password').fill(account.password);
    await Promise.all([page.waitForURL(`${callbackUri()}?**`), page.getByRole('button', { name: 'Approve' }).click()]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe(state);
    expect(landed.searchParams.get('code')).toBeTruthy();
    await page.close();
  });
});
