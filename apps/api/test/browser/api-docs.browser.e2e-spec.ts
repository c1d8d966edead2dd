import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCOPES } from '@lnk/identity/domain';
import { describeInBrowser, screenshot, useBrowserStage } from '../support/browser';

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { version: string })
  .version;

describeInBrowser('Swagger UI at /docs in a real browser (Chromium)', () => {
  const stage = useBrowserStage();

  async function openDocs(page: Page): Promise<void> {
    await page.goto(`${stage.t.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
  }

  it('renders every operation of the document under its own CSP, with no blocked resource', async () => {
    const page = await stage.browser.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') blocked.push(message.text());
    });
    await openDocs(page);
    const operations = await page.locator('.opblock').count();
    const document = (await stage.t.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).toBe(expected);
    expect(await page.getByText('lnk API').first().isVisible()).toBe(true);
    await screenshot(page, 'api-docs');
    expect(blocked).toEqual([]);
    await page.close();
  });

  it("shows the service's version (package.json) in the title's version badge", async () => {
    const page = await stage.browser.newPage();
    await openDocs(page);
    expect((await page.locator('.info .title .version').first().textContent())?.trim()).toBe(PACKAGE_VERSION);
    await page.close();
  });

  /**
   * Where the open Authorize dialog stands: its body's scroll, the boxes of the dialog, its body and its first field in the window, and the
   * focus.
   */
  async function authorizeDialog(page: Page) {
    const dialog = page.locator('.dialog-ux .modal-ux');
    const body = dialog.locator('.modal-ux-content');
    const firstInput = body.locator('input').first();
    await firstInput.waitFor();
    // The fields' autofocus (and the scroll it causes) happen as the dialog mounts: read once the focus is in it.
    await page.waitForFunction("document.activeElement !== null && document.activeElement.closest('.modal-ux') !== null");
    const boxOf = async (locator: typeof dialog) => {
      const box = await locator.boundingBox();
      if (!box) throw new Error('not rendered');
      return { top: box.y, bottom: box.y + box.height };
    };
    return {
      body,
      firstInput,
      scrollTop: await body.evaluate((element) => element.scrollTop),
      dialogBox: await boxOf(dialog),
      bodyBox: await boxOf(body),
      inputBox: await boxOf(firstInput),
      firstInputId: await firstInput.getAttribute('id'),
      focusedId: await page.evaluate('document.activeElement.id'),
    };
  }

  /**
   * Issue 28: with fifteen scopes listed under each of two OAuth flows the dialog's body scrolls, and every
   * credential field has autofocus: the last one (the password flow's user name) took the focus, and the
   * dialog opened scrolled 1,500 to 2,400 pixels down, its first fields out of sight. On a short window the
   * centred dialog also lost its top edge above the screen.
   */
  it.each([
    ['a laptop window', { width: 1280, height: 720 }],
    ['a short window', { width: 1024, height: 480 }],
  ])(
    'opens the Authorize dialog at its top in %s, first field in sight and focused; again after it was scrolled and closed',
    async (_name, viewport) => {
      const page = await stage.browser.newPage({ viewport });
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') blocked.push(message.text());
      });
      await openDocs(page);
      for (const time of ['first', 'again']) {
        await page.locator('.auth-wrapper .authorize').click();
        const seen = await authorizeDialog(page);
        if (time === 'first') await screenshot(page, `api-docs-authorize-${viewport.width}x${viewport.height}`, { fullPage: false });
        expect(seen.scrollTop).toBe(0);
        // The whole dialog, its title included, within the window; its first field within the body's visible part.
        expect(seen.dialogBox.top).toBeGreaterThanOrEqual(0);
        expect(seen.dialogBox.bottom).toBeLessThanOrEqual(viewport.height);
        expect(seen.inputBox.top).toBeGreaterThanOrEqual(seen.bodyBox.top);
        expect(seen.inputBox.bottom).toBeLessThanOrEqual(seen.bodyBox.bottom);
        expect(await seen.firstInput.isVisible()).toBe(true);
        expect(seen.firstInputId).toBeTruthy();
        expect(seen.focusedId).toBe(seen.firstInputId);
        // Scrolled to its end and closed: the next opening starts at the top again.
        await seen.body.evaluate((element) => element.scrollTo(0, element.scrollHeight));
        await page.locator('.modal-ux .close-modal').click();
        await page.locator('.dialog-ux').waitFor({ state: 'detached' });
      }
      expect(blocked).toEqual([]);
      await page.close();
    },
  );

  it('describes each OAuth scope in the dialog by what it grants, not by its name', async () => {
    const page = await stage.browser.newPage();
    await openDocs(page);
    await page.locator('.auth-wrapper .authorize').click();
    const scopes = page.locator('.dialog-ux .scopes').first().locator('.checkbox');
    const described = await scopes.evaluateAll((items) =>
      items.map((item) => [item.querySelector('.name')?.textContent, item.querySelector('.description')?.textContent]),
    );
    expect(described.map(([name]) => name)).toEqual([...SCOPES]);
    expect(described).toContainEqual(['links:read', 'Read your short links and their QR codes, and export them']);
    expect(described.filter(([name, description]) => !description || description === name)).toEqual([]);
    await page.close();
  });
});
