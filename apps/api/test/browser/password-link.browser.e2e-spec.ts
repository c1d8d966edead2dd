import type { Page } from 'playwright-core';
import { createAccount, TestAccount } from '../support/identity';
import { describeInBrowser, LANDING_HOST, screenshot, useBrowserStage } from '../support/browser';

describeInBrowser('password-protected short link in a real browser (Chromium)', () => {
  const stage = useBrowserStage();
  let ada: TestAccount;
  /**
   * The service refuses destinations on its own short host (127.0.0.1 in tests, whatever the port, under
   * any spelling of a loopback address), so links name the landing server by a name the browser maps.
   */
  let landingOrigin: string;
  let counter = 0;

  beforeAll(async () => {
    ada = await createAccount(stage.t);
    landingOrigin = stage.landing.url.replace('//127.0.0.1:', `//${LANDING_HOST}:`);
  });

  /** A protected link to the landing server; its short URL is served on the app's own loopback address. */
  async function protectedLink(password: string): Promise<{ shortUrl: string; destination: string }> {
    const slug = `locked-${++counter}-${Date.now().toString(36)}`;
    const destination = `${landingOrigin}/secret/place?from=short`;
    const created = await stage.t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: destination, slug, hasPassword: true, password },
    });
    if (created.status !== 200) throw new Error(`link creation failed: ${created.status} ${created.text}`);
    return { shortUrl: `${stage.t.baseUrl}/${slug}`, destination };
  }

  /** Types the password and submits; resolves with the status of the page the form answered with. */
  async function submitWrong(page: Page, shortUrl: string, password: string): Promise<number> {
    await page.getByLabel('Password').fill(password);
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && response.url() === shortUrl),
      page.getByRole('button', { name: 'Open link' }).click(),
    ]);
    await page.getByRole('alert').waitFor();
    return answer.status();
  }

  it('shows the password form, and the same form with an error after a wrong password', async () => {
    const { shortUrl } = await protectedLink('open sesame');
    const page = await stage.browser.newPage();
    const first = await page.goto(shortUrl);
    expect(first?.status()).toBe(200);
    expect(page.url()).toBe(shortUrl);
    await page.getByRole('heading', { name: 'This link is protected' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'password-link-form');

    expect(await submitWrong(page, shortUrl, 'not it')).toBe(401);
    expect(await page.getByRole('alert').textContent()).toBe('That password is not right.');
    expect(page.url()).toBe(shortUrl);
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    await screenshot(page, 'password-link-wrong-password');
    await page.close();
  });

  it('after a wrong password, the right one opens the destination', async () => {
    const { shortUrl, destination } = await protectedLink('open sesame');
    const page = await stage.browser.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) blocked.push(message.text());
    });
    await page.goto(shortUrl);
    await page.getByRole('heading', { name: 'This link is protected' }).waitFor();

    expect(await submitWrong(page, shortUrl, 'still not it')).toBe(401);
    expect(await page.getByRole('alert').textContent()).toBe('That password is not right.');
    await screenshot(page, 'password-link-before-right-password');

    await page.getByLabel('Password').fill('open sesame');
    const landingRequests: Record<string, string>[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(landingOrigin)) landingRequests.push(request.headers());
    });
    const navigation = await Promise.all([
      page.waitForURL(`${landingOrigin}/secret/place?**`),
      page.getByRole('button', { name: 'Open link' }).click(),
    ]).then(
      () => 'landed',
      (error: Error) => error.message.split('\n')[0],
    );
    await screenshot(page, 'password-link-after-right-password');
    // The right password answers a page that goes on by itself: the form's CSP form-action stays 'self'
    // (Chromium applies form-action to a redirect answering a form) and nothing is blocked.
    expect(blocked).toEqual([]);
    expect(navigation).toBe('landed');
    expect(page.url()).toBe(destination);
    // The destination learns nothing of the short URL it came through.
    expect(landingRequests.length).toBeGreaterThan(0);
    expect(landingRequests.map((headers) => headers['referer'])).toEqual(landingRequests.map(() => undefined));
    await page.getByRole('heading', { name: 'Landed' }).waitFor();
    expect(await page.locator('#where').textContent()).toBe('/secret/place?from=short');
    await page.close();
  });
});
