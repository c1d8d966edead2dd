import { createAccount } from '../support/identity';
import { describeInBrowser, screenshot, useBrowserStage } from '../support/browser';

describeInBrowser('sandbox checkout in a real browser (Chromium)', () => {
  const stage = useBrowserStage({ BILLING: 'sandbox' });

  it('shows the plan and price, pays with the one form, lands on the success URL, then verifies', async () => {
    const ada = await createAccount(stage.t);
    const started = await stage.t.request('POST', '/user/subscription/checkout', {
      token: ada.accessToken,
      body: {
        planId: 'business',
        successUrl: `${stage.landing.url}/done?session={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${stage.landing.url}/cancelled`,
      },
    });
    const { sessionId, url } = started.body.data;
    const page = await stage.browser.newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Subscribe to Business' }).waitFor();
    expect(await page.locator('.price').textContent()).toContain('$29.00');
    await screenshot(page, 'sandbox-checkout-page');

    await Promise.all([page.waitForURL(`${stage.landing.url}/done?**`), page.getByRole('button', { name: /^Pay/ }).click()]);
    expect(new URL(page.url()).searchParams.get('session')).toBe(sessionId);
    await screenshot(page, 'sandbox-checkout-success');
    await page.close();

    const verified = await stage.t.request('POST', '/user/subscription/verify', { token: ada.accessToken, body: { sessionId } });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toMatchObject({ status: 'active', planId: 'business' });
  });

  it('the cancel link goes back to the cancel URL and nothing is paid', async () => {
    const bob = await createAccount(stage.t);
    const started = await stage.t.request('POST', '/user/subscription/checkout', {
      token: bob.accessToken,
      body: { planId: 'pro', successUrl: `${stage.landing.url}/done`, cancelUrl: `${stage.landing.url}/cancelled` },
    });
    const page = await stage.browser.newPage();
    await page.goto(started.body.data.url);
    await Promise.all([page.waitForURL(`${stage.landing.url}/cancelled`), page.getByRole('link', { name: 'Cancel' }).click()]);
    await page.close();
    const verify = await stage.t.request('POST', '/user/subscription/verify', {
      token: bob.accessToken,
      body: { sessionId: started.body.data.sessionId },
    });
    expect(verify.body.code).toBe('PAYMENT_NOT_COMPLETED');
  });
});
