import type { Browser } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { describeInBrowser, launchBrowser, screenshot } from '../support/browser';

describeInBrowser('Swagger UI at /docs in a real browser (Chromium)', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every operation of the document under its own CSP, with no blocked resource', async () => {
    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') blocked.push(message.text());
    });
    await page.goto(`${t.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
    const operations = await page.locator('.opblock').count();
    const document = (await t.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).toBe(expected);
    expect(await page.getByText('lnk API').first().isVisible()).toBe(true);
    await screenshot(page, 'api-docs');
    expect(blocked).toEqual([]);
    await page.close();
  });
});
