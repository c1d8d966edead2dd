import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { startTestApp, TestApp } from './test-app';

/** Debian's Chromium (`.ci/run` installs it); CHROMIUM_PATH names another. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);

/** `describe` when Chromium is installed, else a skipped block that says why. */
export const describeInBrowser: jest.Describe = hasChromium
  ? describe
  : (((name: string, fn: () => void) => {
      process.stderr.write(`[browser tests] skipped "${name}": no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)\n`);
      describe.skip(name, fn);
    }) as jest.Describe);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // This machine's network is closed: Chromium must not reach out on its own.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=MAP ${LANDING_HOST} 127.0.0.1`,
    ],
  });
}

/**
 * A name the browser resolves to loopback: the service refuses destinations on its own host under any
 * spelling (127.0.0.1 in tests, so every loopback address and `localhost` too), so links to the landing
 * server name it so.
 */
export const LANDING_HOST = 'landing.lnk.test';

const ARTIFACTS = join(__dirname, '..', '..', '..', '..', 'test-artifacts', 'browser');

/** Saves a screenshot as a test artifact (test-artifacts/browser/<name>.png): the whole page, or what the window shows. */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/** The documentation's images (docs/images), which browser tests make. */
export const DOCS_IMAGES = join(__dirname, '..', '..', '..', '..', 'docs', 'images');

/**
 * A documentation image: what the window shows, as a test artifact, and with DOCS_IMAGES=1 written to
 * docs/images/<name>.png too (to refresh the README's picture; the run leaves the tree alone otherwise).
 * Re-encoded without the alpha channel at the highest deflate level: about a third smaller than Chromium's.
 */
export async function docsImage(page: Page, name: string): Promise<PNG> {
  const shot = PNG.sync.read(readFileSync(await screenshot(page, name, { fullPage: false })));
  // Only when asked: the re-encoding takes seconds of a shared machine's CPU.
  if (process.env['DOCS_IMAGES'] === '1')
    writeFileSync(join(DOCS_IMAGES, `${name}.png`), PNG.sync.write(shot, { colorType: 2, inputHasAlpha: true, deflateLevel: 9 }));
  return shot;
}

/** A client application's pages on loopback: where the browser lands after a redirect. */
export async function startLandingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><title>Client app</title><h1>Landed</h1><p ' +
        'id="where">' +
        `${(req.url ?? '').replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a browser test works with: the app, Chromium, and a client app's pages to land on. */
export interface BrowserStage {
  t: TestApp;
  browser: Browser;
  landing: Awaited<ReturnType<typeof startLandingServer>>;
}

/** The beforeAll/afterAll of a browser test file; the stage's fields are set once beforeAll has run. */
export function useBrowserStage(env: Record<string, string> = {}): BrowserStage {
  const stage = {} as BrowserStage;
  beforeAll(async () => {
    stage.t = await startTestApp({ env });
    stage.landing = await startLandingServer();
    stage.browser = await launchBrowser();
  });
  afterAll(async () => {
    await stage.browser?.close();
    await stage.landing?.close();
    await stage.t?.close();
  });
  return stage;
}
