import { describeInBrowser, screenshot, useBrowserStage } from '../support/browser';

describeInBrowser('Swagger UI at /docs in a real browser (Chromium)', () => {
  const stage = useBrowserStage();


  it('renders every operation of the document under its own CSP, with no blocked resource', async () => {
    const page = await stage.browser.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') blocked.push(message.text());
    });
    await page.goto(`${stage.t.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
    const operations = await page.locator('.opblock').count();
    const document = (await stage.t.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).toBe(expected);
    expect(await page.getByText('lnk API').first().isVisible()).toBe(true);
    await screenshot(page, 'api-docs');
    expect(blocked).toEqual([]);
    await page.close();
  });
});
