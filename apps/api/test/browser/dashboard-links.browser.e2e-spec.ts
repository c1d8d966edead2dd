import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildApp, BuiltDist } from '../support/built-app';
import { seriousViolations, signInThroughPages } from '../support/dashboard-browser';
import { PNG } from 'pngjs';
import { describeInBrowser, DOCS_IMAGES, docsImage, LANDING_HOST, launchBrowser, screenshot, startLandingServer } from '../support/browser';
import { createAccount, TestAccount } from '../support/identity';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/webhook-receiver';

/** A desktop Chrome's User-Agent: HeadlessChrome is a bot by isbot's list, and a bot's visit is not counted. */
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

describeInBrowser("the dashboard's links in a real browser (Chromium), against the API on PostgreSQL", () => {
  let built: BuiltDist;
  let t: TestApp;
  let landing: Awaited<ReturnType<typeof startLandingServer>>;
  let landingOrigin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ada: TestAccount;
  let bob: TestAccount;
  /** What the browser reported against the page's CSP: nothing, if no chunk (the chart's either) needs inline script or style. */
  const cspReports: string[] = [];
  /** Every API path the page asked for, to check paging and that charts come in their own chunk. */
  const requested: string[] = [];
  /** The links list's answers as the page read them: the cursor each page was asked with and the one it answered. */
  const linkPages: Promise<{ cursor: string | null; nextCursor: string | null; count: number }>[] = [];
  let linkPath = '';

  beforeAll(async () => {
    built = await buildApp();
    t = await startTestApp({ env: { DASHBOARD_DIR: join(built.dir, 'apps/web') } });
    landing = await startLandingServer();
    landingOrigin = landing.url.replace('//127.0.0.1:', `//${LANDING_HOST}:`);
    // The Quickstart's account, as the README's picture shows it signed in.
    ada = await createAccount(t, { email: 'ada@example.com' });
    bob = await createAccount(t);
    browser = await launchBrowser();
    context = await browser.newContext({ userAgent: CHROME, acceptDownloads: true });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
    });
    page.on('request', (request) => requested.push(new URL(request.url()).pathname + new URL(request.url()).search));
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname !== '/user/link' || response.request().method() !== 'GET') return;
      linkPages.push(
        response.json().then((body: { data: unknown[]; meta: { nextCursor: string | null } }) => ({
          cursor: url.searchParams.get('cursor'),
          nextCursor: body.meta.nextCursor,
          count: body.data.length,
        })),
      );
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await landing?.close();
    await t?.close();
    built?.remove();
  });

  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
  const flushClicks = () => t.app.get('CONTEXTS').analytics.clicks.flush();
  const linksOf = async (account: TestAccount) =>
    (await t.request('GET', '/user/link?limit=100', { token: account.accessToken })).body as {
      data: { id: string; slug: string }[];
      meta: { total: number };
    };

  it('signs in to an empty links page that says what to do first', async () => {
    await page.goto(`${t.baseUrl}/app/links`);
    await signInThroughPages(page, t.baseUrl, ada.email, ada.password);
    await page.waitForURL(`${t.baseUrl}/app/links`);
    await heading('Links');
    await page.getByText('No links yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-links-empty');
  });

  it("shows the API's error beside the field that caused it, then creates the link with its options", async () => {
    // Bob's slug is taken for Ada too (slugs are unique across the service): the refusal names the slug field.
    expect(
      (await t.request('POST', '/user/link', { token: bob.accessToken, body: { url: 'https://example.com/bob', slug: 'spring-sale' } }))
        .status,
    ).toBe(200);
    await page.getByRole('link', { name: 'Create your first link' }).click();
    await heading('New link');
    await page.getByLabel('Destination URL').fill(`${landingOrigin}/sale?from=dashboard`);
    await page.getByLabel('Slug (optional)').fill('spring-sale');
    await page.getByLabel('Title (optional)').fill('Spring sale');
    await page.getByLabel('Expires at (optional)').fill('2031-01-01T12:00');
    await page.getByLabel('Visit limit (optional)').fill('100');
    await page.getByLabel('Redirect type').selectOption('307');
    await page.getByLabel('utm_source').fill('dashboard');
    await page.getByLabel('utm_campaign').fill('spring');
    await page.getByRole('button', { name: 'Add a country target' }).click();
    await page.getByLabel('Country code').fill('de');
    await page.getByLabel('Its visitors go to').fill('https://example.de/sale');
    await page.getByRole('button', { name: 'Create link' }).click();

    const slug = page.getByLabel('Slug (optional)');
    await page.locator('.field-invalid').filter({ has: slug }).locator('.field-error').waitFor();
    expect(await slug.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await slug.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').pop()}"]`).textContent()).toMatch(/taken|unique|use/i);
    // The other fields are not marked: the error is on the field that caused it.
    expect(await page.getByLabel('Destination URL').getAttribute('aria-invalid')).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-link-field-error');

    await slug.fill('spring-sale-ada');
    await page.getByRole('button', { name: 'Create link' }).click();
    await heading('Spring sale');
    linkPath = new URL(page.url()).pathname;
    await page
      .getByTestId('short-url')
      .filter({ hasText: `${t.baseUrl}/spring-sale-ada` })
      .waitFor();
    await page.getByText('0 of 100 used').waitFor();

    const stored = (await t.request('GET', `/user/link/${linkPath.split('/').pop()}`, { token: ada.accessToken })).body.data;
    expect(stored).toMatchObject({
      slug: 'spring-sale-ada',
      title: 'Spring sale',
      maxVisits: 100,
      redirectType: 307,
      utm: { source: 'dashboard', campaign: 'spring' },
      targets: { country: { DE: 'https://example.de/sale' } },
    });
    expect(Date.parse(stored.expiresAt)).toBeGreaterThan(Date.parse('2030-12-31T00:00:00Z'));
  });

  it('copies the short URL in one click, previews the QR code and downloads it as PNG and SVG', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
    await page.getByRole('button', { name: 'Copy short URL' }).click();
    await page.getByText('Copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${t.baseUrl}/spring-sale-ada`);

    const qr = page.getByRole('img', { name: /QR code of/ });
    await qr.waitFor();
    // Decoded, not just present: the PNG fetched through the SDK (with the bearer token) is shown as a blob: URL.
    expect(await page.evaluate("document.querySelector('img.qr-preview').naturalWidth")).toBeGreaterThan(0);
    expect(await qr.getAttribute('src')).toMatch(/^blob:/);
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PNG' }).click()]);
    expect(png.suggestedFilename()).toBe('spring-sale-ada-qr.png');
    expect(
      readFileSync((await png.path()) as string)
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download SVG' }).click()]);
    expect(readFileSync((await svg.path()) as string, 'utf8')).toMatch(/<svg/);
  });

  it("opens the short URL in the browser, and the click appears on the link's chart and in its numbers", async () => {
    await page.getByTestId('visits-total').filter({ hasText: '0' }).waitFor();
    const chartsBefore = requested.filter((p) => /\/app\/assets\/link-charts-.*\.js$/.test(p)).length;
    expect(chartsBefore).toBe(1);

    const visitor = await context.newPage();
    await visitor.goto(`${t.baseUrl}/spring-sale-ada`);
    const landed = new URL(visitor.url());
    expect(`${landed.host}${landed.pathname}`).toBe(`${new URL(landingOrigin).host}/sale`);
    expect(landed.searchParams.get('utm_source')).toBe('dashboard');
    await visitor.close();
    await flushClicks();

    await page.reload();
    await heading('Spring sale');
    await page.getByTestId('visits-total').filter({ hasText: /^1$/ }).waitFor();
    const overTime = page.locator('.chart-block').first();
    await overTime.getByRole('img', { name: /Visits over time: 1 in all/ }).waitFor();
    await page.getByRole('region', { name: 'Devices' }).getByRole('cell', { name: 'desktop' }).waitFor();
    await page.getByRole('region', { name: 'QR code or link' }).getByRole('cell', { name: 'Link', exact: true }).waitFor();
    await page.getByRole('region', { name: 'Browsers' }).getByRole('cell', { name: 'Chrome' }).waitFor();
    await page.getByText('1 of 100 used').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-link-page');

    await page.getByLabel('By').selectOption('month');
    await page
      .getByRole('cell', { name: new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', timeZone: 'UTC' }) })
      .waitFor();
  });

  it('imports a CSV and shows the report line by line, then exports every link as CSV and JSON', async () => {
    await page.goto(`${t.baseUrl}/app/links/import`);
    await heading('Import and export');
    const csv = [
      'url,slug,title,tags',
      `${landingOrigin}/one,imported-one,First,promo`,
      `${landingOrigin}/two,imported-two,Second,`,
      'not a url,imported-bad,Bad,',
      `${landingOrigin}/again,imported-one,Again,`,
    ].join('\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('heading', { name: 'Import report' }).waitFor();
    expect(await page.getByTestId('import-created').textContent()).toBe('2');
    expect(await page.getByTestId('import-skipped').textContent()).toBe('2');
    const skipped = page.getByRole('table', { name: 'Skipped lines' });
    await skipped.getByRole('row', { name: /^4 Invalid/ }).waitFor();
    await skipped.getByRole('row', { name: /^5 Slug taken/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-links-import');

    const [csvExport] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as CSV' }).click()]);
    const exported = readFileSync((await csvExport.path()) as string, 'utf8');
    expect(exported.split(/\r?\n/)[0]).toMatch(/^url,slug/);
    expect(exported).toContain('imported-one');
    expect(exported).toContain('spring-sale-ada');
    // Another account's link is never in Ada's export.
    expect(exported).not.toContain('https://example.com/bob');
    const [jsonExport] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as JSON' }).click()]);
    const lines = readFileSync((await jsonExport.path()) as string, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { slug: string });
    expect(lines.map((l) => l.slug).sort()).toEqual(['imported-one', 'imported-two', 'spring-sale-ada']);
  });

  it("shows the README's picture of the dashboard: the Quickstart's account and its links at 1000 px", async () => {
    // DOCS_IMAGES=1 refreshes docs/images/dashboard.png. The committed one is checked to be there, that
    // width, and small (it is in every clone), so the README never points at a missing or oversized picture.
    await page.getByRole('link', { name: 'Links', exact: true }).click();
    await heading('Links');
    await page.setViewportSize({ width: 1000, height: 600 });
    await page.getByText('3 links').waitFor();
    await page.getByText('ada@example.com').waitFor();
    expect((await docsImage(page, 'dashboard')).width).toBe(1000);
    const committed = readFileSync(join(DOCS_IMAGES, 'dashboard.png'));
    expect([PNG.sync.read(committed).width, committed.length < 120 * 1024]).toEqual([1000, true]);
    await page.setViewportSize({ width: 1280, height: 720 });
  }, 60_000);

  it('chooses several links and deletes them together, after asking', async () => {
    await page.getByRole('link', { name: 'Links', exact: true }).click();
    await heading('Links');
    await page.getByText('3 links').waitFor();
    await page.getByLabel('Choose First').check();
    await page.getByLabel('Choose Second').check();
    await page.getByRole('region', { name: 'Chosen links' }).getByText('2').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-links-chosen');

    await page.getByLabel('Tags (separated by commas)').fill('autumn, promo');
    await page.getByRole('button', { name: 'Add tags' }).click();
    await page.getByText('Tagged 2 links: autumn, promo.').waitFor();
    const tagsOf = async (slug: string) => {
      const id = (await linksOf(ada)).data.find((l) => l.slug === slug)?.id;
      return ((await t.request('GET', `/user/link/${id}`, { token: ada.accessToken })).body.data.tags as { name: string }[])
        .map((tag) => tag.name)
        .sort();
    };
    expect(await tagsOf('imported-two')).toEqual(['autumn', 'promo']);
    expect(await tagsOf('spring-sale-ada')).toEqual([]);

    await page.getByRole('button', { name: 'Delete chosen' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('2 links deleted.').waitFor();
    await page.getByText('1 link', { exact: true }).waitFor();
    expect((await linksOf(ada)).data.map((l) => l.slug)).toEqual(['spring-sale-ada']);
    // Bob's link was never Ada's to delete, and is still there.
    expect((await linksOf(bob)).meta.total).toBe(1);
  });

  it('keeps the table to the rows in view at 1,200 links, loading pages of 100 as it scrolls', async () => {
    for (let batch = 0; batch < 12; batch++) {
      const links = Array.from({ length: 100 }, (_, i) => ({
        url: `https://example.com/bulk/${batch}/${i}`,
        slug: `bulk-${batch}-${i}`,
        title: `Bulk ${batch * 100 + i}`,
      }));
      const created = await t.request('POST', '/user/link/bulk', { token: ada.accessToken, body: { links } });
      expect(created.status).toBe(200);
    }
    const pagesBefore = requested.filter((p) => p.startsWith('/user/link?')).length;
    const answersBefore = linkPages.length;
    await page.reload();
    await heading('Links');
    await page.getByText('1,201 links').waitFor();
    const shownRows = () => page.locator('.links-table tbody tr:not(.spacer)').count();
    expect(await shownRows()).toBeLessThan(60);
    const firstPages = requested.filter((p) => p.startsWith('/user/link?')).slice(pagesBefore);
    expect(firstPages.length).toBe(1);
    // The first page is asked without a position (no offset, no cursor).
    expect(firstPages[0]).not.toMatch(/[?&](start|cursor)=/);
    expect(firstPages[0]).toMatch(/limit=100/);

    // Scrolling to the end (the oldest link, newest first) asks for the following pages in order, and still shows only what is in view.
    const oldest = page.getByRole('link', { name: 'Spring sale' });
    // A person scrolling down: each page is asked for once the rows before it are in view (bounded, 90 s).
    for (let i = 0; i < 180 && !(await oldest.count()); i++) {
      await page.evaluate("document.querySelector('.links-scroll').scrollTop = document.querySelector('.links-scroll').scrollHeight");
      await page.waitForTimeout(500);
    }
    const pagesAsked = requested.filter((p) => p.startsWith('/user/link?')).slice(pagesBefore);
    expect([await oldest.count(), pagesAsked.length]).toEqual([1, 13]);
    expect(await shownRows()).toBeLessThan(60);
    // Pages are asked by cursor, never by offset (an offset page costs the API more the deeper it is, and
    // shifts when links are created meanwhile): each page with the nextCursor the page before answered,
    // the last answering none, and every link read once.
    expect(pagesAsked.filter((p) => /[?&]start=/.test(p))).toEqual([]);
    const answers = await Promise.all(linkPages.slice(answersBefore));
    expect(answers).toHaveLength(13);
    expect(answers[0].cursor).toBeNull();
    for (let i = 1; i < answers.length; i++) expect([i, answers[i].cursor]).toEqual([i, answers[i - 1].nextCursor]);
    expect(answers.slice(0, -1).every((a) => typeof a.nextCursor === 'string' && a.nextCursor.length > 0)).toBe(true);
    expect(answers[answers.length - 1].nextCursor).toBeNull();
    expect(answers.reduce((sum, a) => sum + a.count, 0)).toBe(1201);

    // Search asks the API (q), and the table shows what it answers.
    await page.getByLabel('Search links').fill('Bulk 1199');
    await page.getByText('1 link match').waitFor();
    await page.getByRole('cell', { name: 'https://example.com/bulk/11/99' }).waitFor();
    // Twelve bulk requests and thirteen pages on a loaded machine: more than the default 30 s.
  }, 180_000);

  it("works at a phone's width, with every page free of serious accessibility violations and CSP reports", async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByLabel('Search links').fill('');
    await page.getByText('1,201 links').waitFor();
    // Back from a search, the table starts again at the top of the whole list: its newest link is drawn in
    // view (it was drawn thousands of pixels down, past the scroller's edge, when the table kept the old scroll).
    const newest = page.getByRole('link', { name: 'Bulk 1199' });
    await newest.waitFor({ timeout: 5_000 });
    expect(((await newest.boundingBox())?.y ?? Infinity) < 740).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-links-phone', { fullPage: false });
    // Keyboard: from the search box, Tab reaches the filter, then the table's first checkbox.
    await page.getByLabel('Search links').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('link-expired');
    await page.goto(`${t.baseUrl}${linkPath}`);
    await heading('Spring sale');
    await page.getByTestId('visits-total').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-link-page-phone', { fullPage: false });
    expect(cspReports).toEqual([]);
  });

  it('edits a link: the form shows what it has, and what it empties is cleared (null through the real API)', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Edit' }).click();
    await heading('Edit Spring sale');
    expect(await page.getByLabel('Visit limit (optional)').inputValue()).toBe('100');
    expect(await page.getByLabel('utm_source').inputValue()).toBe('dashboard');
    await page.getByLabel('Title (optional)').fill('Spring sale, extended');
    await page.getByLabel('Visit limit (optional)').fill('');
    await page.getByLabel('utm_campaign').fill('');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-link-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await heading('Spring sale, extended');
    const stored = (await t.request('GET', `/user/link/${linkPath.split('/').pop()}`, { token: ada.accessToken })).body.data;
    expect(stored).toMatchObject({ title: 'Spring sale, extended', utm: { source: 'dashboard' }, redirectType: 307 });
    expect(stored).not.toHaveProperty('maxVisits');
    expect(stored.utm).not.toHaveProperty('campaign');
  });

  // Issue 31: an account of its own (a short list), in a browser context of its own.
  it(
    'filters by tag, sorts by title, stars a favourite and shows ' + 'favourites only, the view kept in the address across a reload',
    async () => {
      const carol = await createAccount(t);
      const own = await browser.newContext({ userAgent: CHROME });
      const tab = await own.newPage();
      const as = (path: string, body: Record<string, unknown>) => t.request('POST', path, { token: carol.accessToken, body });
      const reading = (await as('/user/tag', { name: 'reading' })).body.data.id as string;
      for (const [title, tags] of [
        ['Banana bread', [reading]],
        ['apple pie', []],
        ['Cherry tart', [reading]],
      ] as const) {
        expect((await as('/user/link', { url: 'https://example.com/recipes', title, tags })).status).toBe(200);
      }
      const names = () => tab.locator('.links-table tbody tr:not(.spacer) .link-name').allTextContents();
      const count = (text: string) => tab.getByText(text, { exact: true }).waitFor();
      try {
        await tab.goto(`${t.baseUrl}/app/links`);
        await signInThroughPages(tab, t.baseUrl, carol.email, carol.password);
        await tab.getByRole('heading', { level: 1, name: 'Links' }).waitFor();
        await count('3 links');
        expect(await names()).toEqual(['Cherry tart', 'apple pie', 'Banana bread']);

        await tab.getByLabel('Tag', { exact: true }).selectOption({ label: 'reading' });
        await count('2 links match');
        expect(await names()).toEqual(['Cherry tart', 'Banana bread']);
        await tab.getByLabel('Order').selectOption({ label: 'Title, A to Z' });
        await tab.waitForURL(/sort=title/);
        await until(names, (shown) => shown.join() === 'Banana bread,Cherry tart');
        expect(new URL(tab.url()).searchParams.get('tag')).toBe(reading);
        // A reload keeps the view: it lives in the address.
        await tab.reload();
        await count('2 links match');
        expect([
          await tab.getByLabel('Tag', { exact: true }).inputValue(),
          await tab.getByLabel('Order').inputValue(),
          await names(),
        ]).toEqual([reading, 'title', ['Banana bread', 'Cherry tart']]);

        await tab.getByLabel('Tag', { exact: true }).selectOption({ label: 'Any tag' });
        await count('3 links');
        expect(await names()).toEqual(['apple pie', 'Banana bread', 'Cherry tart']);
        const star = tab.getByRole('button', { name: 'Favourite: apple pie' });
        expect(await star.getAttribute('aria-pressed')).toBe('false');
        await star.click();
        await until(
          () => star.getAttribute('aria-pressed'),
          (pressed) => pressed === 'true',
        );
        const stored = (await t.request('GET', '/user/link?favorite=true', { token: carol.accessToken })).body.data as { title: string }[];
        expect(stored.map((l) => l.title)).toEqual(['apple pie']);
        await tab.getByLabel('Favourites only').check();
        await count('1 link match');
        expect(await names()).toEqual(['apple pie']);
        expect(new URL(tab.url()).searchParams.get('favorite')).toBe('true');
        expect(await seriousViolations(tab)).toEqual([]);
        await screenshot(tab, 'dashboard-links-favourites');

        // The form's Favourite checkbox: a new link made a favourite joins the favourites.
        await tab.getByRole('link', { name: 'New link' }).click();
        await tab.getByLabel('Destination URL').fill('https://example.com/dumplings');
        await tab.getByLabel('Title (optional)').fill('Dumplings');
        await tab.getByLabel(/^Favourite/).check();
        expect(await seriousViolations(tab)).toEqual([]);
        await tab.getByRole('button', { name: 'Create link' }).click();
        await tab.getByRole('heading', { level: 1, name: 'Dumplings' }).waitFor();
        const favourites = (await t.request('GET', '/user/link?favorite=true&sort=title', { token: carol.accessToken })).body.data as {
          title: string;
        }[];
        expect(favourites.map((l) => l.title)).toEqual(['apple pie', 'Dumplings']);
      } finally {
        await own.close();
      }
    },
    90_000,
  );
});
