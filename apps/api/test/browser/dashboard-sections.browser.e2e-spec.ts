import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { buildApp, BuiltDist } from '../support/built-app';
import { describeInBrowser, launchBrowser, screenshot } from '../support/browser';
import { seriousViolations, signInThroughPages } from '../support/dashboard-browser';
import { startDnsServer } from '../support/dns-server';
import { createAccount, TestAccount } from '../support/identity';
import { startTestApp, TestApp } from '../support/test-app';
import { startWebhookReceiver, until, WebhookReceiver } from '../support/webhook-receiver';

const TARGET = 'cname.lnk.test';

/**
 * The dashboard's domains, tags, webhooks, OAuth apps and plan pages in Chromium, against the API on
 * PostgreSQL with a real DNS server (for verification and its loss), a real webhook receiver and the
 * sandbox payment page. Each page is checked with axe-core and kept as a screenshot.
 */
describeInBrowser("the dashboard's domains, tags, webhooks, OAuth apps and plan (Chromium, the API on PostgreSQL)", () => {
  let built: BuiltDist;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let receiver: WebhookReceiver;
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ada: TestAccount;
  let bob: TestAccount;
  const cspReports: string[] = [];
  let webhookSecret = '';

  beforeAll(async () => {
    built = await buildApp();
    dns = await startDnsServer();
    receiver = await startWebhookReceiver();
    t = await startTestApp({
      env: {
        DASHBOARD_DIR: join(built.dir, 'apps/web'),
        DNS_SERVERS: dns.address,
        DNS_TARGET: TARGET,
        // Verified domains are checked again every second here, so the loss shows within the test.
        DOMAIN_RECHECK_INTERVAL: '1',
        BILLING: 'sandbox',
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOKS_POLL_INTERVAL: '20',
        WEBHOOKS_RETRY_BASE_DELAY: '50',
        SECRET_KEY: 'a'.repeat(64),
      },
    });
    ada = await createAccount(t);
    bob = await createAccount(t);
    browser = await launchBrowser();
    context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
    await dns?.close();
    built?.remove();
  });

  const heading = (name: string, on: Page = page) => on.getByRole('heading', { level: 1, name }).waitFor();
  const open = async (label: string, title: string) => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: label }).click();
    await heading(title);
  };
  /** Opens a section with nothing in it yet (its empty state: accessible, pictured) and starts its first item. */
  const createFirst = async (section: 'Tags' | 'Webhooks', item: string) => {
    await open(section, section);
    await page.getByText(`No ${section.toLowerCase()} yet`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `dashboard-${section.toLowerCase()}-empty`);
    await page.getByRole('button', { name: `Create your first ${item}` }).click();
  };
  const clipboard = () => page.evaluate<string>('navigator.clipboard.readText()');
  /** The secret a ShownOnce box shows, once it shows one other than `before` (a box still open shows the old one for a moment). */
  const shownOnce = async (before = '') => {
    const box = page.getByTestId('shown-once-value');
    await until(
      async () => ((await box.count()) ? await box.textContent() : ''),
      (value) => Boolean(value) && value !== before,
    );
    return (await box.textContent()) ?? '';
  };

  it('signs in and opens the domains page empty, saying what to do first', async () => {
    // Another account's domain must never show on ada's page.
    expect((await t.request('POST', '/user/domain', { token: bob.accessToken, body: { name: 'bob.example.test' } })).status).toBe(200);
    await page.goto(`${t.baseUrl}/app/domains`);
    await signInThroughPages(page, t.baseUrl, ada.email, ada.password);
    await heading('Domains');
    await page.getByText('No domains yet').waitFor();
    expect(await page.getByText('bob.example.test').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-domains-empty');
  });

  it('adds a domain and shows the DNS records to publish, each copied exactly in one click', async () => {
    await page.getByRole('button', { name: 'Add your first domain' }).click();
    // The API's refusal (meta.errors) shows under the field that caused it, tied to it for screen readers.
    await page.getByLabel('Domain name').fill('not a domain!');
    await page.getByRole('button', { name: 'Add domain' }).last().click();
    await page.locator('.field-invalid').getByLabel('Domain name').waitFor();
    expect(await page.getByLabel('Domain name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.field-error').count()).toBe(1);
    await page.getByLabel('Domain name').fill('go.ada.test');
    await page.getByRole('button', { name: 'Add domain' }).last().click();
    await page.getByText('go.ada.test is added').waitFor();
    const card = page.getByRole('region', { name: 'go.ada.test' });
    await card.getByText('Waiting for DNS').waitFor();

    const listed = await t.request('GET', '/user/domain', { token: ada.accessToken });
    const { verification } = listed.body.data[0] as { verification: { name: string; value: string } };
    const route = card.getByRole('table', { name: 'The record that routes go.ada.test' });
    expect(await route.getByRole('cell').allTextContents()).toEqual([
      'CNAME',
      expect.stringContaining('go.ada.test'),
      expect.stringContaining(TARGET),
    ]);
    const proof = card.getByRole('table', { name: 'The TXT record that proves go.ada.test is yours' });
    // What a person pastes into their DNS provider must be the API's challenge to the character.
    await proof.getByRole('button', { name: 'Copy value' }).click();
    await proof.getByText('Copied').waitFor();
    expect(await clipboard()).toBe(verification.value);
    await proof.getByRole('button', { name: 'Copy name' }).click();
    expect(await clipboard()).toBe(verification.name);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-domains-records');
  });

  it('says what is missing when verified too early, then verifies once the records are in DNS', async () => {
    const card = page.getByRole('region', { name: 'go.ada.test' });
    await card.getByRole('button', { name: 'Verify go.ada.test' }).click();
    await card.getByRole('alert').filter({ hasText: 'Not verified yet' }).waitFor();
    expect(await card.getByRole('alert').textContent()).toContain('TXT record _lnk-challenge.go.ada.test');

    const listed = await t.request('GET', '/user/domain', { token: ada.accessToken });
    const { verification } = listed.body.data[0] as { verification: { name: string; value: string } };
    dns.cnames.set('go.ada.test', TARGET);
    dns.txts.set(verification.name, [verification.value]);
    await card.getByRole('button', { name: 'Verify go.ada.test' }).click();
    await card.getByText('Verified', { exact: true }).waitFor();
    expect((await t.request('GET', '/user/domain', { token: ada.accessToken })).body.data[0].isVerified).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-domains-verified');
  });

  it('shows when and why verification was lost (a record removed from DNS), and verifies again', async () => {
    dns.txts.clear();
    const lost = await until(
      async () => (await t.request('GET', '/user/domain', { token: ada.accessToken })).body.data[0],
      (d) => d.verificationLostAt !== null,
      20_000,
    );
    expect(lost.isVerified).toBe(false);
    await page.reload();
    const card = page.getByRole('region', { name: 'go.ada.test' });
    await card.getByText('Verification lost').waitFor();
    await card.getByRole('note').getByText('stopped working').waitFor();
    expect(await card.getByRole('note').textContent()).toContain('_lnk-challenge.go.ada.test');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-domains-lost');

    dns.txts.set(lost.verification.name, [lost.verification.value]);
    await card.getByRole('button', { name: 'Verify again go.ada.test' }).click();
    await card.getByText('Verified', { exact: true }).waitFor();
  });

  it('says in the confirmation why a domain its links use cannot be deleted, and asking again starts clean', async () => {
    // The shared confirmation dialog: a refusal must be said inside it (not lost behind the modal), the
    // domain must stay, and Cancel must forget the refusal so the next question does not show a stale one.
    const domain = (await t.request('GET', '/user/domain', { token: ada.accessToken })).body.data[0] as { id: string };
    const link = await t.request('POST', '/user/link', {
      token: ada.accessToken,
      body: { url: 'https://example.org/kept', slug: 'kept-on-domain', domainId: domain.id },
    });
    expect(link.status).toBe(200);
    try {
      const card = page.getByRole('region', { name: 'go.ada.test' });
      const dialog = page.getByRole('dialog');
      await card.getByRole('button', { name: 'Delete go.ada.test' }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await dialog.getByRole('alert').waitFor();
      expect((await dialog.getByRole('alert').textContent())?.trim()).not.toBe('');
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await card.getByRole('button', { name: 'Delete go.ada.test' }).click();
      await dialog.getByRole('heading', { name: 'Delete go.ada.test?' }).waitFor();
      expect(await dialog.getByRole('alert').count()).toBe(0);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await t.request('GET', '/user/domain', { token: ada.accessToken })).body.data.map((d: { id: string }) => d.id)).toEqual([
        domain.id,
      ]);
    } finally {
      await t.request('DELETE', `/user/link/${link.body.data.id}`, { token: ada.accessToken });
    }
  });

  it('creates, renames, favourites and deletes a tag', async () => {
    await createFirst('Tags', 'tag');
    await page.getByLabel('Name').fill('spring');
    await page.getByRole('button', { name: 'Create tag' }).last().click();
    await page.getByText('"spring" is created.').waitFor();

    await page.getByRole('button', { name: 'Rename spring' }).click();
    await page.getByLabel('New name for spring').fill('spring-2027');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('"spring" is now "spring-2027".').waitFor();
    await page.getByRole('button', { name: 'Favourite spring-2027' }).click();
    await page.getByRole('button', { name: 'Favourite spring-2027', pressed: true }).waitFor();
    const tags = await t.request('GET', '/user/tag', { token: ada.accessToken });
    expect(tags.body.data.map((tag: { name: string; isFavorite: boolean }) => [tag.name, tag.isFavorite])).toEqual([['spring-2027', true]]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-tags');

    await page.getByRole('button', { name: 'Delete spring-2027' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No tags yet').waitFor();
    expect((await t.request('GET', '/user/tag', { token: ada.accessToken })).body.data).toEqual([]);
  });

  it('creates a webhook, shows its signing secret once, and the test event it sends is signed with that secret', async () => {
    await createFirst('Webhooks', 'webhook');
    await page.getByLabel('Receiver URL').fill('ftp://example.com/hook');
    await page.getByRole('button', { name: 'Create webhook' }).last().click();
    await page.locator('.field-invalid').getByLabel('Receiver URL').waitFor();
    expect(await page.getByTestId('shown-once-value').count()).toBe(0);
    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('CRM');
    await page.getByRole('button', { name: 'Create webhook' }).last().click();
    const secret = await shownOnce();
    expect(secret).toMatch(/^whsec_/);
    webhookSecret = secret;
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-webhooks-secret');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('shown-once-value').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    await page.getByText('A test event is on its way').waitFor();
    const deliveries = page.getByRole('region', { name: `Deliveries to ${receiver.url}` });
    await deliveries.getByText(/^Delivered \(answered 204/).waitFor({ timeout: 20_000 });
    await deliveries.getByText('webhook.test').waitFor();
    const got = await until(
      () => receiver.got.length,
      (n) => n > 0,
    );
    expect(got).toBe(1);
    // The receiver can trust the delivery: it verifies with the secret the page showed.
    const { headers, body } = receiver.got[0];
    expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-webhooks-deliveries');
  });

  it("rotates the webhook's secret (the old one no longer verifies) and deletes the webhook", async () => {
    const before = receiver.got.length;
    await page.getByRole('button', { name: `New secret for ${receiver.url}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make a new secret' }).click();
    const rotated = await shownOnce(webhookSecret);
    expect(rotated).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    await until(
      () => receiver.got.length,
      (n) => n > before,
    );
    const { headers, body } = receiver.got[before];
    expect(() => new Webhook(rotated).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(webhookSecret).verify(body, headers)).toThrow();

    await page.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No webhooks yet').waitFor();
    expect((await t.request('GET', '/user/webhooks', { token: ada.accessToken })).body.data).toEqual([]);
  });

  it('creates an OAuth app, shows its secret once (it works), and a new secret replaces it at once', async () => {
    await open('OAuth apps', 'OAuth apps');
    await page.getByRole('button', { name: 'Create app' }).first().click();
    await page.getByLabel('Name', { exact: true }).fill('Reporting');
    await page.getByLabel('Redirect URIs').fill('https://reports.example.test/callback');
    await page.getByRole('button', { name: 'Create app' }).last().click();
    const secret = await shownOnce();
    const clientId = (await page.getByTestId('client-id').textContent()) ?? '';
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-oauth-apps-secret');
    const grant = (clientSecret: string) =>
      t.request('POST', '/oauth/token', {
        body: { grant_type: 'password', client_id: clientId, client_secret: clientSecret, username: ada.email, password: ada.password },
      });
    expect((await grant(secret)).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('cell', { name: 'Reporting', exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-oauth-apps');

    await page.getByRole('button', { name: 'New secret for Reporting' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make a new secret' }).click();
    const rotated = await shownOnce(secret);
    expect(rotated).not.toBe(secret);
    expect((await grant(secret)).status).toBe(401);
    expect((await grant(rotated)).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: 'Delete Reporting' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('"Reporting" is deleted').waitFor();
    expect((await grant(rotated)).status).toBe(401);
  });

  it('shows usage as quota bars and the plans, and pays for one through the sandbox checkout', async () => {
    await open('Plan', 'Plan and usage');
    await page.getByTestId('current-plan').filter({ hasText: 'Free' }).waitFor();
    const domains = page.locator('.quota').filter({ hasText: 'Domains' });
    expect(await domains.textContent()).toContain('1 of 1');
    await domains.getByText('Reached').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-plan');

    await page.getByRole('button', { name: 'Choose Pro' }).click();
    await page.getByRole('heading', { name: 'Subscribe to Pro' }).waitFor();
    await screenshot(page, 'dashboard-plan-checkout');
    await Promise.all([page.waitForURL(`${t.baseUrl}/app/plan**`), page.getByRole('button', { name: /^Pay/ }).click()]);
    await page.getByText('Payment received').waitFor();
    await page.getByTestId('current-plan').filter({ hasText: 'Pro' }).waitFor();
    // The session id is taken off the address once used.
    expect(new URL(page.url()).search).toBe('');
    expect((await t.request('GET', '/user/subscription/current', { token: ada.accessToken })).body.data.planId).toBe('pro');
    expect(await domains.textContent()).toContain('1 of 5');
  });

  it('comes back from a cancelled checkout saying nothing was paid', async () => {
    await page.getByRole('button', { name: 'Choose Business' }).click();
    await page.getByRole('heading', { name: 'Subscribe to Business' }).waitFor();
    await Promise.all([page.waitForURL(`${t.baseUrl}/app/plan**`), page.getByRole('link', { name: 'Cancel' }).click()]);
    await page.getByText('Checkout cancelled').waitFor();
    await page.getByTestId('current-plan').filter({ hasText: 'Pro' }).waitFor();
  });

  it('is usable with the keyboard alone: the focused control shows a visible outline', async () => {
    await open('Tags', 'Tags');
    await page.getByRole('button', { name: 'Create tag' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Name').waitFor();
    expect(await page.evaluate<string>('document.activeElement.name')).toBe('name');
    await page.keyboard.type('by-keyboard');
    await page.keyboard.press('Enter');
    await page.getByText('"by-keyboard" is created.').waitFor();
    await page.keyboard.press('Tab');
    const outline = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
  });

  it('fits each page on a phone-width screen', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const [label, title, name] of [
      ['Domains', 'Domains', 'dashboard-domains-phone'],
      ['Tags', 'Tags', 'dashboard-tags-phone'],
      ['Webhooks', 'Webhooks', 'dashboard-webhooks-phone'],
      ['OAuth apps', 'OAuth apps', 'dashboard-oauth-apps-phone'],
      ['Plan', 'Plan and usage', 'dashboard-plan-phone'],
    ] as const) {
      await open(label, title);
      await page.locator('.state-loading').first().waitFor({ state: 'detached' });
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      // The page and what sticks out of it named (outside a box that scrolls sideways), so a failure says where.
      const outside = await page.evaluate<string[]>(
        `[...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > 376)
        .filter((e) => { for (let a = e.parentElement; a; a = a.parentElement) if (['auto', 'scroll'].includes(getComputedStyle(a).` +
          `overflowX)) return false; return true; })
        .map((e) => e.tagName.toLowerCase() + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 6)`,
      );
      expect({ label, outside, fits: width <= 375 }).toEqual({ label, outside: [], fits: true });
      await screenshot(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('renames the account: a blank name is refused on its field, a new one is shown after a reload', async () => {
    await page.goto(`${t.baseUrl}/app/account`);
    await heading('Account');
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('   ');
    await page.getByRole('button', { name: 'Change name' }).click();
    // The API's refusal (meta.errors on name) is shown on the field, and announced with it.
    await until(
      () => name.getAttribute('aria-invalid'),
      (invalid) => invalid === 'true',
    );
    const describedBy = (await name.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').pop()}"]`).textContent()).toMatch(/name must not be empty/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-account-name-error');
    expect((await t.request('GET', '/user/me', { token: ada.accessToken })).body.data.name).not.toBe('');

    await name.fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Change name' }).click();
    await page.getByText('Name changed').waitFor();
    await page.reload();
    await heading('Account');
    await page.locator('dd', { hasText: 'Ada Lovelace' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Ada Lovelace');
    expect((await t.request('GET', '/user/me', { token: ada.accessToken })).body.data.name).toBe('Ada Lovelace');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('deletes an account only with its password (a wrong one changes nothing), and signs out', async () => {
    const carol = await createAccount(t);
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    try {
      await other.goto(`${t.baseUrl}/app/account`);
      await signInThroughPages(other, t.baseUrl, carol.email, carol.password);
      await heading('Account', other);
      await other.getByRole('button', { name: 'Delete account…' }).click();
      const dialog = other.getByRole('dialog');
      await dialog.getByLabel('Your current password').fill('not the password');
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await dialog.locator('.field-error, .form-error').first().waitFor();
      expect(await seriousViolations(other)).toEqual([]);
      // A signed-in browser left open is not enough to delete the account.
      expect((await t.request('GET', '/user/me', { token: carol.accessToken })).status).toBe(200);

      await dialog.getByLabel('Your current password').fill(carol.password);
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await heading('Sign in to lnk', other);
      expect((await t.request('GET', '/user/me', { token: carol.accessToken })).status).toBe(401);
      const signIn = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: carol.client.clientId,
          client_secret: carol.client.clientSecret,
          username: carol.email,
          password: carol.password,
        },
      });
      expect(signIn.status).not.toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it("ran under the page's CSP without a single violation", () => {
    expect(cspReports).toEqual([]);
  });
});
